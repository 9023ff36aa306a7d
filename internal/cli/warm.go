package cli

import (
	"context"
	"sync"

	"github.com/provadev/prova/engine/module"
)

// connecter is a host whose connection can be set up ahead of its first
// command (sshconn.Conn); a local host has nothing to set up.
type connecter interface {
	Connect(ctx context.Context) error
}

// warm opens the connections of a run in the background while the run
// starts: first the cluster lock's host (nil: none), then host(name) for
// each of names in order, at most forks dials at once. Without it the lock
// host was dialled and locked first and every other host dialled only
// after that, when the first step reached it: at 10 hosts that serial
// dial was most of the run's fixed cost (docs/performance.md).
//
// Opening a connection changes nothing on a host: a dial that fails is
// remembered by the connection and reported by the first step that uses
// the host, as if that step had dialled; a host no step uses is connected
// and closed. The returned function cancels the dials not yet made (a
// cancelled dial is not remembered: a step dials again) and waits for
// those in flight; call it before closing the transport.
func warm(ctx context.Context, lock module.Host, names []string, forks int, host func(string) module.Host) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	dial := func(h module.Host) {
		if c, ok := h.(connecter); ok {
			_ = c.Connect(ctx) // the error stays with the connection
		}
	}
	if lock != nil {
		wg.Go(func() { dial(lock) })
	}
	slots := make(chan struct{}, max(forks, 1))
	wg.Go(func() {
		for _, name := range names {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			h := host(name)
			wg.Go(func() {
				defer func() { <-slots }()
				dial(h)
			})
		}
	})
	return func() {
		cancel()
		wg.Wait()
	}
}
