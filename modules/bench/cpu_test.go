package bench

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

// mpstat runs alongside: it is started before the benchmark and stopped
// (its context cancelled) when the benchmark ends; its partial output is
// used.
func TestCPUCaptureRunsAlongside(t *testing.T) {
	f := load(t)
	cut := strings.Index(f.mpstat, "\n\n14:03:48     CPU")
	if cut < 0 {
		t.Fatal("sample layout changed")
	}
	partial := f.mpstat[:cut+1] // banner and one interval, no Average
	h := &alongside{FakeHost: moduletest.NewFakeHost("init1"), partial: partial, started: make(chan struct{}), stopped: make(chan struct{})}
	f.elbencho(h.FakeHost)
	h.Handle(`^elbencho `, func(string, []byte) moduletest.Reply {
		select {
		case <-h.started:
		default:
			t.Error("the benchmark started before mpstat")
		}
		return moduletest.Reply{Stdout: "(console)\n"}
	})
	resp := apply(t, NewBlock(), h, elbBody)
	select {
	case <-h.stopped:
	default:
		t.Fatal("mpstat was not stopped")
	}
	if got := num(t, resp.Outputs, "cpu", "samples"); got != 1 {
		t.Errorf("samples = %v, want the 1 interval printed before the stop", got)
	}
}

// alongside is a host whose mpstat prints partial output and runs until
// its context is cancelled.
type alongside struct {
	*moduletest.FakeHost
	partial          string
	started, stopped chan struct{}
}

func (h *alongside) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if !strings.Contains(cmd, "mpstat") {
		return h.FakeHost.Run(ctx, cmd, stdin, stdout, stderr)
	}
	close(h.started)
	io.WriteString(stdout, h.partial)
	<-ctx.Done()
	close(h.stopped)
	return -1, ctx.Err()
}

func TestCPUCaptureMissingMpstat(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("init6")
	f.elbencho(h)
	h.Reply(`mpstat`, moduletest.Reply{RC: 127, Stderr: "sh: 1: mpstat: not found\n"})
	resp := apply(t, NewBlock(), h, elbBody)
	if resp.Failed || !isNull(resp.Outputs, "cpu") || !strings.Contains(resp.Message, "mpstat (sysstat) is not installed on init6") {
		t.Errorf("failed=%t cpu null=%t %q", resp.Failed, isNull(resp.Outputs, "cpu"), resp.Message)
	}
}

func TestCPUSamples(t *testing.T) {
	for _, s := range []string{"mpstat/mpstat-P-ALL-1-2-C-locale.txt", "mpstat/mpstat-P-ALL-1-2-en_US-AMPM.txt",
		"mpstat/mpstat-o-JSON-P-ALL-1-2.json", "mpstat/mpstat-1-2-no-P.txt"} {
		h := moduletest.NewFakeHost("t1")
		h.Reply(`^LC_ALL=C mpstat -P ALL 1 5$`, moduletest.Reply{Stdout: string(samples.Read(t, s))})
		resp := apply(t, NewCPUCapture(), h, `duration = "5s"`)
		if resp.Failed || num(t, resp.Outputs, "samples") != 2 || num(t, resp.Outputs, "busy_cores") <= 0 {
			t.Errorf("%s: %s %#v", s, resp.Message, resp.Outputs)
		}
	}
	h := moduletest.NewFakeHost("t1")
	h.Reply(`mpstat`, moduletest.Reply{RC: 1, Stdout: string(samples.Read(t, "mpstat/error-invalid-cpu.txt"))})
	if resp := apply(t, NewCPUCapture(), h, `duration = "5s"`); !resp.Failed || !strings.Contains(resp.Message, "mpstat on t1 exited 1") {
		t.Errorf("invalid cpu: %q", resp.Message)
	}
}

func TestCPUCaptureConformance(t *testing.T) {
	f := load(t)
	moduletest.Run(t, NewCPUCapture(), moduletest.WithProbes([]moduletest.Case{{
		Name: "cpu-capture",
		Body: `duration = "2s"`,
		Setup: func(h *moduletest.FakeHost) {
			h.Reply(`^LC_ALL=C mpstat -P ALL 1 2$`, moduletest.Reply{Stdout: f.mpstat})
		},
	}}, `^LC_ALL=C mpstat `))
}

// A long benchmark reports progress while it runs.
func TestProgress(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("init1")
	f.elbencho(h)
	got := make(chan module.Progress, 8)
	h.Handle(`^elbencho `, func(string, []byte) moduletest.Reply {
		select {
		case <-got:
		case <-time.After(30 * time.Second):
			t.Error("no progress within 30s")
		}
		return moduletest.Reply{Stdout: "(console)\n"}
	})
	args := decode(t, NewBlock(), strings.Replace(elbBody, "2s", "60s", 1))
	var last module.Progress
	_, err := NewBlock().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args, Progress: func(p module.Progress) {
		last = p
		select {
		case got <- p:
		default:
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if last.Elapsed < 1 || last.Remaining <= 0 || !strings.Contains(last.Message, "of 60s") {
		t.Errorf("progress = %+v", last)
	}
}
