package sshconn_test

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshtest"
)

func fakeTarget(t testing.TB, name string, s *sshtest.Server) sshconn.Target {
	return sshconn.Target{Name: name, Address: "127.0.0.1", Port: s.Port, User: "test",
		IdentityFiles: []string{s.ClientKeyFile}, KnownHostsFiles: []string{s.WriteKnownHosts(t)}}
}

// blocker waits for the session to end, after saying it started.
func blocker(started chan<- struct{}) sshtest.Handler {
	return func(ctx context.Context, _ string, _ io.Reader, _, _ io.Writer) int {
		started <- struct{}{}
		<-ctx.Done()
		return 1
	}
}

func TestKeepaliveDetectsDeadPeer(t *testing.T) {
	started := make(chan struct{}, 1)
	dead := sshtest.NewServer(t, blocker(started))
	alive := sshtest.NewServer(t, nil)
	p := newPool(t, sshconn.Options{})
	fast := func(tg sshconn.Target) sshconn.Target {
		tg.ServerAliveInterval, tg.ServerAliveCountMax = 20*time.Millisecond, 3
		return tg
	}
	hd := p.Host(fast(fakeTarget(t, "dead", dead)))
	ha := p.Host(fast(fakeTarget(t, "alive", alive)))
	for _, h := range []*sshconn.Conn{hd, ha} {
		if err := h.Connect(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	errc := make(chan error, 1)
	go func() {
		_, err := hd.Run(context.Background(), "sleep 600", nil, nil, nil)
		errc <- err
	}()
	<-started // the command runs on the server: now the host freezes
	dead.StopAnswering()
	err := <-errc // no context deadline: only keepalive can end this
	if !module.IsUnreachable(err) || !strings.Contains(err.Error(), "stopped answering") {
		t.Fatalf("Run on the dead host: %v, want unreachable after keepalives", err)
	}
	if _, err := hd.Run(context.Background(), "true", nil, nil, nil); !module.IsUnreachable(err) {
		t.Errorf("later Run on the dead host: %v, want unreachable", err)
	}
	if out := run(t, ha, "echo fine"); out.Stdout != "fine\n" {
		t.Errorf("other host: %q", out.Stdout)
	}
}

func TestCommandsRecorded(t *testing.T) {
	s := sshtest.NewServer(t, func(_ context.Context, cmd string, _ io.Reader, stdout, _ io.Writer) int {
		io.WriteString(stdout, "ran "+cmd)
		return 0
	})
	h := newPool(t, sshconn.Options{}).Host(fakeTarget(t, "n1", s))
	cmds := []string{"ibstat", "mmlsconfig verbsRdma", "nvme list-subsys -o json"}
	for _, c := range cmds {
		if out := run(t, h, c); out.Stdout != "ran "+c {
			t.Errorf("%s: stdout %q", c, out.Stdout)
		}
	}
	if diff := cmp.Diff(cmds, s.Commands()); diff != "" {
		t.Errorf("Commands (-want +got):\n%s", diff)
	}
}

func TestSignalExitStatus(t *testing.T) {
	s := sshtest.NewServer(t, func(context.Context, string, io.Reader, io.Writer, io.Writer) int { return -9 })
	rc, err := newPool(t, sshconn.Options{}).Host(fakeTarget(t, "n1", s)).Run(context.Background(), "x", nil, nil, nil)
	if err != nil || rc != 128+9 {
		t.Fatalf("rc=%d err=%v, want 137", rc, err)
	}
}

func TestDroppedMidCommandIsUnreachable(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	s.DropAfter(1)
	h := newPool(t, sshconn.Options{}).Host(fakeTarget(t, "n1", s))
	run(t, h, "true")
	_, err := h.Run(context.Background(), "true", nil, nil, nil)
	if !module.IsUnreachable(err) {
		t.Fatalf("err = %v, want unreachable", err)
	}
}

// The connection's end is noticed without a goroutine waiting for it
// (endWatch): once the server has dropped the connection, the host is
// dead, and every later Run says why at once instead of trying to open a
// session on a closed connection.
func TestDroppedConnectionMarksHostDead(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	s.DropAfter(1)
	h := newPool(t, sshconn.Options{}).Host(fakeTarget(t, "n1", s))
	run(t, h, "true")
	if _, err := h.Run(context.Background(), "true", nil, nil, nil); !module.IsUnreachable(err) {
		t.Fatalf("err = %v, want unreachable", err)
	}
	for range 3 {
		_, err := h.Run(context.Background(), "true", nil, nil, nil)
		if !module.IsUnreachable(err) || !strings.Contains(err.Error(), "connection to") || !strings.Contains(err.Error(), "lost") {
			t.Fatalf("later Run: %v, want the connection's loss", err)
		}
	}
}

func TestMaxSessionsBoundsConcurrency(t *testing.T) {
	var cur, peak atomic.Int32
	release := make(chan struct{})
	arrived := make(chan struct{}, 10)
	s := sshtest.NewServer(t, func(ctx context.Context, _ string, _ io.Reader, _, _ io.Writer) int {
		n := cur.Add(1)
		defer cur.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		arrived <- struct{}{}
		<-release
		return 0
	})
	h := newPool(t, sshconn.Options{MaxSessions: 2}).Host(fakeTarget(t, "n1", s))
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			if rc, err := h.Run(context.Background(), "x", nil, nil, nil); rc != 0 || err != nil {
				t.Errorf("Run: %d %v", rc, err)
			}
		})
	}
	<-arrived
	<-arrived // two are running; the other four must wait for a slot
	close(release)
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Errorf("peak concurrent sessions %d, want 2", p)
	}
}

func TestStrictNoWarns(t *testing.T) {
	s := sshtest.NewServer(t, nil)
	var w warnings
	tg := fakeTarget(t, "n1", s)
	tg.KnownHostsFiles, tg.StrictHostKeyChecking = []string{t.TempDir() + "/none"}, "no"
	run(t, newPool(t, sshconn.Options{Warn: w.add}).Host(tg), "true")
	if !strings.Contains(w.all(), "not verified") {
		t.Errorf("warnings %q", w.all())
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// A stdout writer that fails makes Run fail with its error, naming the
// command and the host, and the command still runs to its end (its output
// is drained, not left to block it); stdin reaches the command, and with
// no stdin the command reads EOF at once.
func TestRunStreams(t *testing.T) {
	s := sshtest.NewServer(t, func(_ context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) int {
		in, _ := io.ReadAll(stdin)
		switch cmd {
		case "big":
			for range 4096 {
				io.WriteString(stdout, strings.Repeat("x", 1023)+"\n")
			}
			io.WriteString(stderr, "done\n")
			return 3
		default:
			io.WriteString(stdout, "read "+strconv.Quote(string(in)))
			return 0
		}
	})
	h := newPool(t, sshconn.Options{}).Host(fakeTarget(t, "n1", s))
	var errb strings.Builder
	rc, err := h.Run(context.Background(), "big", nil, failWriter{}, &errb)
	if err == nil || !strings.Contains(err.Error(), "disk full") || !strings.Contains(err.Error(), `"big" on n1`) {
		t.Errorf("Run with a failing stdout: rc=%d err=%v, want the write error naming command and host", rc, err)
	}
	if errb.String() != "done\n" {
		t.Errorf("stderr %q: the command did not run to its end", errb.String())
	}
	var out strings.Builder
	if rc, err := h.Run(context.Background(), "cat", strings.NewReader("input"), &out, nil); err != nil || rc != 0 || out.String() != `read "input"` {
		t.Errorf("with stdin: rc=%d err=%v out=%q", rc, err, out.String())
	}
	out.Reset()
	if rc, err := h.Run(context.Background(), "cat", nil, &out, nil); err != nil || rc != 0 || out.String() != `read ""` {
		t.Errorf("without stdin: rc=%d err=%v out=%q", rc, err, out.String())
	}
}
