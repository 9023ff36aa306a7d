package rdmalat

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/perftest"
)

func (l *Latency) command(a args, server string) string {
	argv := []string{a.Tool}
	if a.Device != nil && *a.Device != "" {
		argv = append(argv, "-d", *a.Device)
	}
	if a.IBPort != nil {
		argv = append(argv, "-i", fmt.Sprint(*a.IBPort))
	}
	argv = append(argv, "-s", fmt.Sprint(a.Size), "-n", fmt.Sprint(a.Iterations), "-p", fmt.Sprint(a.Port))
	if server != "" {
		argv = append(argv, server)
	}
	return module.Command(argv...)
}

// run measures one pair: the server waits on its host while the client,
// retried while the server is still starting, connects to it.
func (l *Latency) run(ctx context.Context, req module.ClusterRequest, a args, p pair) measure {
	m := measure{pair: p}
	sh, ch := req.Hosts[p.server], req.Hosts[p.client]
	addr := p.server
	if v, ok := a.Addresses[p.server]; ok {
		addr = v
	}
	sctx, cancelServer := context.WithCancel(ctx)
	serverDone := make(chan struct{})
	go func() {
		defer close(serverDone)
		module.Capture(sctx, sh, l.command(a, ""))
	}()
	// The server's command has ended on its host before run returns, on
	// every path: a pair never leaves a perftest server behind it.
	grace := time.Duration(0)
	defer func() {
		if grace > 0 {
			t := time.NewTimer(grace)
			defer t.Stop()
			select {
			case <-serverDone:
				cancelServer()
				return
			case <-t.C:
			}
		}
		cancelServer()
		<-serverDone
	}()
	deadline := time.Now().Add(l.connectWait)
	for {
		o, err := module.Capture(ctx, ch, l.command(a, addr))
		if err != nil {
			m.err = err
			return m
		}
		m.raw = o.Stdout + o.Stderr
		if o.RC == 0 {
			r, perr := perftest.ParseLatency([]byte(o.Stdout))
			switch {
			case perr != nil:
				m.err = fmt.Errorf("%s on %s: %w", a.Tool, p.client, perr)
			case r.NoDevice:
				m.err = fmt.Errorf("%s on %s: no RDMA device: %s", a.Tool, p.client, r.Message)
			case len(r.Latency) == 0:
				m.err = fmt.Errorf("%s on %s printed no latency table", a.Tool, p.client)
			default:
				row := r.Latency[len(r.Latency)-1]
				m.row = &row
			}
			break
		}
		if !strings.Contains(m.raw, "Couldn't connect") || time.Now().After(deadline) {
			m.err = fmt.Errorf("%s from %s to %s (%s) failed with rc %d: %s", a.Tool, p.client, p.server, addr, o.RC, module.LastLine(m.raw))
			break
		}
		t := time.NewTimer(l.retryEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			m.err = ctx.Err()
			return m
		case <-t.C:
		}
	}
	// The server ends by itself once its client is done; give it a moment,
	// then stop it so nothing is left running on the host.
	grace = 5 * time.Second
	return m
}
