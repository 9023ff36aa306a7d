package apply

import (
	"context"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
)

// transportStack is about what the SSH transport's frames take below the
// module's host.Run while a command runs (sshconn's Conn.Run and its
// copy, x/crypto/ssh's channel read: 1.6 KiB in the 200-host fan-out,
// docs/performance.md "Peak RSS (ninth round)"). The test's module
// (cmdModule) takes 0.5 KiB more than the shell module's frames.
const transportStack = 1536

// While a command runs, a fork worker's stack holds the engine's frames
// from the worker to the module's host.Run: with the transport's below
// them they fit a stack of 8 KiB, so that a worker parked on a command
// has not grown to 16 KiB (200 hosts: 1.6 MB of stacks, doubled by the GC
// goal it adds to). Stacks only grow, by doubling, and shrink at a
// collection when a quarter is in use; what the workers hold is read from
// the runtime's figure for stacks while every host's command waits.
func TestWorkerStackWhileACommandRuns(t *testing.T) {
	if raceBuild {
		t.Skip("the race detector's frames and stack guard are larger")
	}
	const n = 100
	hosts := make([]string, n)
	for i := range hosts {
		hosts[i] = "n" + strconv.Itoa(i)
	}
	s := newRun(t, `step "cmd" "waits" { command = "wait-deep" }`, hosts, ModeApply)
	s.r.opts.Forks = n
	release := make(chan struct{})
	var waiting sync.WaitGroup
	waiting.Add(n)
	s.fleet.hook = func(host, cmd string) {
		if cmd == "wait-deep" {
			burnStack(transportStack, func() {
				waiting.Done()
				<-release
			})
		}
	}
	runtime.GC()
	runtime.GC() // the stacks of goroutines gone are freed by the second
	before := stackBytes()
	done := make(chan struct{})
	go func() {
		defer close(done)
		out, err := s.r.Run(context.Background())
		if err != nil || out.Failed {
			t.Errorf("run: %v %+v", err, out)
		}
	}()
	waiting.Wait()
	during := stackBytes()
	close(release)
	<-done
	per := (int64(during) - int64(before)) / n
	t.Logf("stacks: %d B before, %d B with %d commands waiting: %d B per worker", before, during, n, per)
	if per > 12<<10 {
		t.Errorf("a worker waiting on a command holds %d B of stack, want a stack of 8 KiB", per)
	}
}

func stackBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/stacks:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// burnStack calls wait with about n bytes of frames of its own below it.
//
//go:noinline
func burnStack(n int, wait func()) byte {
	var frame [256]byte
	frame[n%len(frame)] = byte(n)
	if n <= len(frame) {
		wait()
		return frame[0]
	}
	return burnStack(n-len(frame), wait) + frame[1]
}
