package clusterlock

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/module"
)

// DefaultPath is the lock file when neither runbook nor inventory names one.
const DefaultPath = "/var/lib/prova/cluster.lock"

// Holder says who holds (or held) the lock.
type Holder struct {
	User       string    // user@controller
	RunID      string    // run ID of the apply
	Runbook    string    // runbook path
	Since      time.Time // when the lock was taken
	PID        string    // the holding shell on the lock host
	Controller string    // host name of the controller
}

func (h Holder) String() string {
	s := h.User
	if h.RunID != "" {
		s += ", run " + h.RunID
	}
	if h.Runbook != "" {
		s += ", runbook " + h.Runbook
	}
	if !h.Since.IsZero() {
		s += ", since " + h.Since.UTC().Format(time.RFC3339)
	}
	return s
}

// Lock is the cluster lock on one host and path.
type Lock struct {
	Host module.Host
	Path string
	// Me is written to the holder file when the lock is taken.
	Me Holder
	// Wait is how long Acquire waits for a lock another run holds, default
	// 2s (long enough to ride over a status check, short enough that a
	// second admin is told at once).
	Wait time.Duration
}

// Where is "host:path".
func (l *Lock) Where() string { return l.Host.Name() + ":" + l.Path }

// HeldError is the refusal of Acquire when another run holds the lock.
type HeldError struct {
	Where  string
	Holder Holder
	Known  bool // the holder file could be read
}

func (e *HeldError) Error() string {
	if !e.Known {
		return "another prova run holds the cluster lock " + e.Where + " (holder file missing)"
	}
	return "another prova run holds the cluster lock " + e.Where + ": " + e.Holder.String()
}

// Acquire takes the lock and keeps it until Release.
func (l *Lock) Acquire(ctx context.Context) (apply.HeldLock, error) {
	wait := l.Wait
	if wait <= 0 {
		wait = 2 * time.Second
	}
	me := l.Me
	if me.Since.IsZero() {
		me.Since = time.Now()
	}
	stdin := newTicker(time.Second)
	lines := make(chan string, 64)
	outR, outW := io.Pipe()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var stderr strings.Builder
	var errMu sync.Mutex
	// The session lives as long as the lock, not as long as the caller's
	// context: an interrupted run keeps the lock while it finishes the
	// node in flight, and releases it in Release.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan error, 1)
	go func() {
		rc, err := l.Host.Run(sctx, acquireScript(l.Path, me, wait), stdin, outW, lockedWriter{&stderr, &errMu})
		outW.Close()
		if err == nil && rc != 0 {
			err = fmt.Errorf("exit %d", rc)
		}
		done <- err
	}()
	fail := func(err error) (apply.HeldLock, error) {
		cancel()
		stdin.Close()
		return nil, err
	}
	timeout := time.NewTimer(wait + 30*time.Second)
	defer timeout.Stop()
	select {
	case line, ok := <-lines:
		if !ok || line != "LOCKED" {
			stdin.Close() // the shell is done: let its stdin end
		}
		switch {
		case ok && line == "LOCKED":
			h := &held{lock: l, stdin: stdin, done: done, cancel: cancel, lost: make(chan struct{})}
			go h.watch()
			go drain(lines)
			return h, nil
		case ok && line == "HELD":
			var rest []string
			for l := range lines {
				rest = append(rest, l)
			}
			<-done
			hd, known := parseHolder(rest)
			return fail(&HeldError{Where: l.Where(), Holder: hd, Known: known})
		case ok && line == "NOFLOCK":
			<-done
			return fail(fmt.Errorf("cluster lock %s: flock(1) is not installed on %s (util-linux)", l.Where(), l.Host.Name()))
		}
		err := <-done
		errMu.Lock()
		msg := strings.TrimSpace(stderr.String())
		errMu.Unlock()
		if module.IsUnreachable(err) {
			return fail(fmt.Errorf("cluster lock host %s: %w", l.Host.Name(), err))
		}
		if msg == "" && ok {
			msg = "unexpected output " + fmt.Sprintf("%q", line)
		}
		return fail(fmt.Errorf("cluster lock %s could not be taken: %v: %s", l.Where(), err, msg))
	case <-ctx.Done():
		return fail(fmt.Errorf("cluster lock %s: %w", l.Where(), ctx.Err()))
	case <-timeout.C:
		return fail(fmt.Errorf("cluster lock %s: no answer from %s after %s", l.Where(), l.Host.Name(), wait+30*time.Second))
	}
}

type lockedWriter struct {
	b  *strings.Builder
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.b.Len() < 4096 {
		w.b.Write(p)
	}
	return len(p), nil
}

func drain(c <-chan string) {
	for range c {
	}
}

// held is a taken lock: the remote shell holds it until its stdin closes.
type held struct {
	lock   *Lock
	stdin  *ticker
	done   chan error
	cancel context.CancelFunc

	mu       sync.Mutex
	released bool
	lostErr  error
	lost     chan struct{}
	endErr   error
}

func (h *held) Where() string { return h.lock.Where() }

// watch notices the session ending before Release: the lock is lost.
func (h *held) watch() {
	err := <-h.done
	h.mu.Lock()
	defer h.mu.Unlock()
	h.endErr = err
	if !h.released {
		if err == nil {
			err = errors.New("the lock session ended (broken by another admin?)")
		}
		h.lostErr = err
	}
	close(h.lost)
}

func (h *held) Err() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lostErr
}

// Release closes the shell's stdin and waits (up to 10s) for it to log the
// release and exit.
func (h *held) Release() error {
	h.mu.Lock()
	if h.released {
		h.mu.Unlock()
		return nil
	}
	h.released = true
	lost := h.lostErr
	h.mu.Unlock()
	h.stdin.Close()
	t := time.NewTimer(10 * time.Second)
	defer t.Stop()
	select {
	case <-h.lost:
	case <-t.C:
	}
	h.cancel()
	return lost
}

// ticker is the holding shell's stdin: a newline every interval (the
// shell's read loop ignores it) until Close, then end of file. The
// newlines are how a transport notices that the shell is gone (a write to
// a closed session fails); without them it would wait on stdin forever.
type ticker struct {
	every time.Duration
	stop  chan struct{}
	once  sync.Once
}

func newTicker(every time.Duration) *ticker {
	return &ticker{every: every, stop: make(chan struct{})}
}

func (t *ticker) Read(p []byte) (int, error) {
	tm := time.NewTimer(t.every)
	defer tm.Stop()
	select {
	case <-t.stop:
		return 0, io.EOF
	case <-tm.C:
		if len(p) == 0 {
			return 0, nil
		}
		p[0] = '\n'
		return 1, nil
	}
}

func (t *ticker) Close() { t.once.Do(func() { close(t.stop) }) }

var _ apply.Lock = (*Lock)(nil)
