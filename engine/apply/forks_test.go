package apply

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
)

func hostNames(n int) []string {
	var hs []string
	for i := range n {
		hs = append(hs, fmt.Sprintf("n%02d", i+1))
	}
	return hs
}

// A host waiting out its retry delay does not hold a fork slot: with 2
// forks, 8 hosts and an hour's delay, every host makes its first attempt
// while the first two wait. (Before, the next two hosts started only
// after an hour.)
func TestRetryDelayFreesTheForkSlot(t *testing.T) {
	hosts := hostNames(8)
	s := newRun(t, `
step "cmd" "a" {
  retries = 1
  delay   = "1h"
  until   = self.rc == 0
  command = "succeed-after 2"
}`, hosts, ModeApply)
	s.r.opts.Forks = 2
	// Every host announces its retry (event.Retry) before it sleeps.
	var mu sync.Mutex
	first := map[string]bool{}
	all := make(chan struct{})
	s.r.opts.Observer = event.Multi{s.ev, event.Func(func(e event.Event) {
		r, ok := e.(event.Retry)
		if !ok {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if !first[r.Host] {
			first[r.Host] = true
			if len(first) == len(hosts) {
				close(all)
			}
		}
	})}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.r.Run(ctx)
	}()
	select {
	case <-all:
	case <-time.After(2 * time.Minute): // a liveness guard, not a timing: the hour would pass first
		mu.Lock()
		n := len(first)
		mu.Unlock()
		t.Errorf("only %d of %d hosts made a first attempt and began to wait while the others waited out their delay", n, len(hosts))
	}
	cancel()
	<-done
	for _, hf := range s.ev.finished() {
		if hf.Status != event.Failed || !strings.Contains(hf.Message, "interrupted during retry delay") {
			t.Errorf("%s: %s %q, want the retry delay interrupted", hf.Host, hf.Status, hf.Message)
		}
	}
}

// Hosts that give their slot up while they wait still never run more
// than forks commands at once, and every host finishes.
func TestRetryDelayKeepsTheForkBound(t *testing.T) {
	hosts := hostNames(40)
	s := newRun(t, `
step "cmd" "a" {
  retries = 3
  delay   = "1ms"
  until   = self.rc == 0
  command = "succeed-after 3"
}`, hosts, ModeApply)
	const forks = 3
	s.r.opts.Forks = forks
	var mu sync.Mutex
	running, most := 0, 0
	s.fleet.hook = func(host, cmd string) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		for range 20 { // let other hosts in while this command "runs"
			runtime.Gosched()
		}
		mu.Lock()
		running--
		mu.Unlock()
	}
	out, err := s.r.Run(context.Background())
	if err != nil || out.Failed {
		t.Fatalf("outcome %+v, %v", out, err)
	}
	if most > forks {
		t.Errorf("%d commands ran at once, forks = %d", most, forks)
	}
	if n := len(s.fleet.commands()); n != 3*len(hosts) {
		t.Errorf("%d commands, want %d", n, 3*len(hosts))
	}
}
