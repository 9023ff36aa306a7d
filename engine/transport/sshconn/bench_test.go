package sshconn_test

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"sync"
	"testing"

	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshdtest"
)

// BenchmarkFanout runs a 10-command runbook (trivial commands, back to back
// per host) on N hosts at once through a fresh Pool, including connection
// setup. Hosts are spread over 4 sshd processes of 16 ports each. Compare
// with sshdtest.BenchmarkFloor, the same work over raw x/crypto/ssh.
func BenchmarkFanout(b *testing.B) {
	c := sshdtest.Start(b, 4, sshdtest.Options{Ports: sshdtest.MaxPorts})
	kh := c.KnownHostsFile(b)
	addrs := c.Addrs()
	for _, n := range []int{10, 50, 200} {
		targets := make([]sshconn.Target, n)
		for i := range targets {
			host, port, _ := net.SplitHostPort(addrs[i%len(addrs)])
			p, _ := strconv.Atoi(port)
			targets[i] = sshconn.Target{Name: fmt.Sprintf("h%03d", i), Address: host, Port: p, User: c.User,
				IdentityFiles: []string{c.ClientKeyFile}, IdentitiesOnly: true, KnownHostsFiles: []string{kh}}
		}
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			home := b.TempDir()
			for b.Loop() {
				p := sshconn.NewPool(sshconn.Options{Home: home, SSHConfigFile: "none"})
				var wg sync.WaitGroup
				for _, tg := range targets {
					h := p.Host(tg)
					wg.Go(func() {
						for range 10 {
							if rc, err := h.Run(context.Background(), "true", nil, nil, nil); rc != 0 || err != nil {
								b.Errorf("%s: rc=%d err=%v", h.Name(), rc, err)
								return
							}
						}
					})
				}
				wg.Wait()
				p.Close()
			}
		})
	}
}
