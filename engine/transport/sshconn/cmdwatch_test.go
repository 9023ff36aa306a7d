package sshconn_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshtest"
)

// cancelServer serves "stop-on-term" (ends on the first signal, as a
// command killed by TERM), "ignore-term" (ends only when its session is
// closed, then reports the signals it got on got), "echo N" and the kill
// scripts (which find nothing here). Every long command says it started
// on started.
func cancelServer(t *testing.T, started chan<- string, got chan<- string) *sshtest.Server {
	return sshtest.NewServer(t, func(ctx context.Context, cmd string, _ io.Reader, stdout, stderr io.Writer) int {
		switch {
		case strings.HasPrefix(cmd, "stop-on-term "):
			sigs := sshtest.Signals(ctx)
			started <- cmd
			select {
			case <-sigs:
				return -15
			case <-ctx.Done():
				return 1
			}
		case strings.HasPrefix(cmd, "ignore-term "):
			sigs := sshtest.Signals(ctx)
			started <- cmd
			var seen []string
			for {
				select {
				case sig := <-sigs:
					seen = append(seen, string(sig))
					continue
				case <-ctx.Done():
				}
				break
			}
			for len(sigs) > 0 { // the requests before the session's end
				seen = append(seen, string(<-sigs))
			}
			got <- cmd + ": " + strings.Join(seen, " ")
			return 1
		case strings.HasPrefix(cmd, "echo "):
			fmt.Fprintln(stdout, strings.TrimPrefix(cmd, "echo "))
			fmt.Fprintln(stderr, "err "+strings.TrimPrefix(cmd, "echo "))
			return 0
		}
		return 0 // a kill script
	})
}

// Run keeps what it needs for a running command from one command to the
// next (cmdWatch). A command cancelled on a connection, whether it ends
// on TERM (the kill reads Run's signal that it finished) or only once its
// session is closed (the kill gives up waiting first), must leave nothing
// behind for the commands after it: each reports its own cause, one that
// ignores TERM still gets KILL (a signal left over from an earlier command
// would end the kill after TERM), and the next command's output and
// status are its own. Several goroutines do it at once on one connection
// (run it with -race).
func TestCancelledCommandsLeaveNothingForTheNext(t *testing.T) {
	started := make(chan string)
	got := make(chan string, 4*6)
	s := cancelServer(t, started, got)
	h := newPool(t, sshconn.Options{KillGrace: 5 * time.Millisecond}).Host(fakeTarget(t, "n1", s))
	// started is shared: each waiter takes the start of its own command.
	var mu sync.Mutex
	waiting := map[string]chan struct{}{}
	go func() {
		for cmd := range started {
			mu.Lock()
			ch := waiting[cmd]
			mu.Unlock()
			close(ch)
		}
	}()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 6 {
				kind := "stop-on-term"
				if i%2 == 1 {
					kind = "ignore-term"
				}
				cmd := fmt.Sprintf("%s %d-%d", kind, g, i)
				up := make(chan struct{})
				mu.Lock()
				waiting[cmd] = up
				mu.Unlock()
				cause := fmt.Errorf("stop %d-%d", g, i)
				ctx, cancel := context.WithCancelCause(context.Background())
				errc := make(chan error, 1)
				go func() {
					_, err := h.Run(ctx, cmd, nil, io.Discard, io.Discard)
					errc <- err
				}()
				<-up
				cancel(cause)
				if err := <-errc; !errors.Is(err, cause) || module.IsUnreachable(err) {
					t.Errorf("%s cancelled: %v, want its own cause %q", cmd, err, cause)
				}
				var out, errOut bytes.Buffer
				want := fmt.Sprintf("%d-%d", g, i)
				rc, err := h.Run(context.Background(), "echo "+want, nil, &out, &errOut)
				if err != nil || rc != 0 || out.String() != want+"\n" || errOut.String() != "err "+want+"\n" {
					t.Errorf("echo after %s: rc=%d err=%v stdout=%q stderr=%q", cmd, rc, err, out.String(), errOut.String())
				}
			}
		})
	}
	wg.Wait()
	close(started)
	for range 4 * 3 { // every command that ignores TERM reports, once its session is gone
		if g := <-got; !strings.HasSuffix(g, ": TERM KILL") {
			t.Errorf("signals of %s, want TERM KILL", g)
		}
	}
}

// A command run under the engine's attempt (module.Attempt) is watched by
// its connection's watch, with no registration per command: its deadline
// kills it (DeadlineExceeded), its parent's cancellation kills it (the
// parent's cause), its End kills it (Canceled), every time on a reused
// watch, and a command after each is untouched: its output, its status,
// and no kill from the deadline of a command that ended before it.
func TestAttemptEndsTheCommandItRuns(t *testing.T) {
	started := make(chan string, 1)
	got := make(chan string, 1)
	s := cancelServer(t, started, got)
	h := newPool(t, sshconn.Options{KillGrace: 5 * time.Millisecond}).Host(fakeTarget(t, "n1", s))
	run, cancelRun := context.WithCancelCause(context.Background())
	defer cancelRun(nil)
	echo := func(what string) {
		t.Helper()
		a := module.NewAttempt(run, time.Now().Add(time.Hour))
		defer a.End()
		var out bytes.Buffer
		if rc, err := h.Run(a, "echo "+what, nil, &out, io.Discard); rc != 0 || err != nil || out.String() != what+"\n" {
			t.Errorf("echo after %s: rc=%d err=%v stdout=%q", what, rc, err, out.String())
		}
	}
	// The deadlines below leave the command time to start on a loaded
	// machine (seconds); a command that did not start fails the test.
	wait := func() {
		t.Helper()
		select {
		case <-started:
		case <-time.After(30 * time.Second):
			t.Fatal("the command did not start")
		}
	}
	echo("first") // dialled before any deadline runs
	for i := range 2 {
		// The deadline: TERM is ignored, KILL follows.
		a := module.NewAttempt(run, time.Now().Add(2*time.Second))
		_, err := h.Run(a, fmt.Sprintf("ignore-term deadline-%d", i), nil, io.Discard, io.Discard)
		a.End()
		wait()
		if !errors.Is(err, context.DeadlineExceeded) || module.IsUnreachable(err) {
			t.Errorf("past its deadline: %v, want DeadlineExceeded", err)
		}
		if g := <-got; !strings.HasSuffix(g, ": TERM KILL") {
			t.Errorf("signals of %s, want TERM KILL", g)
		}
		echo(fmt.Sprintf("deadline-%d", i))

		// End while the command runs (a module that left it running).
		a = module.NewAttempt(run, time.Now().Add(time.Hour))
		errc := make(chan error, 1)
		go func() {
			_, err := h.Run(a, fmt.Sprintf("stop-on-term end-%d", i), nil, io.Discard, io.Discard)
			errc <- err
		}()
		wait()
		a.End()
		if err := <-errc; !errors.Is(err, context.Canceled) || module.IsUnreachable(err) {
			t.Errorf("attempt ended: %v, want Canceled", err)
		}
		echo(fmt.Sprintf("end-%d", i))

		// A deadline that comes after its command ended, while the next
		// one runs: the next one is ended only by what is its own.
		short := module.NewAttempt(run, time.Now().Add(time.Second))
		if rc, err := h.Run(short, "echo quick", nil, io.Discard, io.Discard); rc != 0 || err != nil {
			t.Errorf("echo quick: rc=%d err=%v", rc, err)
		}
		d, _ := short.Deadline()
		short.End()
		cause := fmt.Errorf("stop %d", i)
		parent, cancel := context.WithCancelCause(run)
		a = module.NewAttempt(parent, time.Now().Add(time.Hour))
		go func() {
			_, err := h.Run(a, fmt.Sprintf("stop-on-term after-%d", i), nil, io.Discard, io.Discard)
			errc <- err
		}()
		wait()
		time.Sleep(time.Until(d) + 100*time.Millisecond) // past the short deadline
		cancel(cause)
		if err := <-errc; !errors.Is(err, cause) || module.IsUnreachable(err) {
			t.Errorf("cancelled after another's deadline: %v, want its own cause %q", err, cause)
		}
		a.End()
		echo(fmt.Sprintf("after-%d", i))
	}
	// The run's own cancellation, with the watch's registration kept from
	// the commands before.
	a := module.NewAttempt(run, time.Now().Add(time.Hour))
	errc := make(chan error, 1)
	go func() {
		_, err := h.Run(a, "ignore-term run", nil, io.Discard, io.Discard)
		errc <- err
	}()
	wait()
	cause := errors.New("interrupt")
	cancelRun(cause)
	if err := <-errc; !errors.Is(err, cause) || module.IsUnreachable(err) {
		t.Errorf("run cancelled: %v, want %q", err, cause)
	}
	if g := <-got; !strings.HasSuffix(g, ": TERM KILL") {
		t.Errorf("signals of %s, want TERM KILL", g)
	}
	a.End()
	// A command under an attempt that has already ended does not start.
	if _, err := h.Run(a, "echo late", nil, io.Discard, io.Discard); !errors.Is(err, cause) {
		t.Errorf("under an ended run: %v, want %q", err, cause)
	}
}
