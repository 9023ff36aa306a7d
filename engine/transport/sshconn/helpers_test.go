package sshconn_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshdtest"
)

// warnings records Warn calls.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(host, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, host+": "+msg)
}

func (w *warnings) all() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.msgs, "\n")
}

// newPool returns a pool with an empty home, no ssh_config and no agent
// unless opts says otherwise; closed by t.Cleanup.
func newPool(t testing.TB, opts sshconn.Options) *sshconn.Pool {
	t.Helper()
	if opts.Home == "" {
		opts.Home = t.TempDir()
	}
	if opts.SSHConfigFile == "" {
		opts.SSHConfigFile = "none"
	}
	p := sshconn.NewPool(opts)
	t.Cleanup(func() { p.Close() })
	return p
}

// target points at instance i of c with the cluster's key.
func target(c *sshdtest.Cluster, i int, knownHosts string) sshconn.Target {
	return sshconn.Target{
		Name:            fmt.Sprintf("n%d", i),
		Address:         "127.0.0.1",
		Port:            c.Port(i),
		User:            c.User,
		IdentityFiles:   []string{c.ClientKeyFile},
		IdentitiesOnly:  true,
		KnownHostsFiles: []string{knownHosts},
	}
}

func run(t testing.TB, h module.Host, cmd string) module.Output {
	t.Helper()
	out, err := module.Capture(context.Background(), h, cmd)
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return out
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}
