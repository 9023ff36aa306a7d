package bench

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/samples"
)

const elbBody = "tool = \"elbencho\"\npath = \"/dev/nvme1n1\"\nthreads = 16\niodepth = 32\nruntime = \"2s\"\n"

func TestElbenchoFromResfile(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("init1")
	f.elbencho(h)
	resp := apply(t, New(), h, elbBody)
	if resp.Failed {
		t.Fatal(resp.Message)
	}
	o := resp.Outputs
	// The fixture's READ section: LAST DONE IOPS, --latpercent bounds.
	if got := num(t, o, "iops"); got != 881209 {
		t.Errorf("iops = %v", got)
	}
	if got := num(t, o, "lat_p50_us"); got != 2896 {
		t.Errorf("lat_p50_us = %v", got)
	}
	if got := num(t, o, "lat_p99_us"); got != 4096 {
		t.Errorf("lat_p99_us = %v", got)
	}
	if !isNull(o, "lat_avg_us") {
		t.Error("lat_avg_us must be null when elbencho printed no average")
	}
	if o.GetAttr("op").AsString() != "randread" || o.GetAttr("tool").AsString() != "elbencho" {
		t.Errorf("op %v tool %v", o.GetAttr("op"), o.GetAttr("tool"))
	}
	// mpstat C-locale sample: 2 intervals of 2 CPUs nearly fully busy.
	if got := num(t, o, "cpu", "busy_cores"); got < 1.9 || got > 2 {
		t.Errorf("busy_cores = %v", got)
	}
	if got := num(t, o, "cpu", "samples"); got != 2 {
		t.Errorf("samples = %v", got)
	}
	if resp.Evidence["resfile"] == "" || resp.Evidence["LC_ALL=C mpstat -P ALL 1 32"] == "" {
		t.Errorf("evidence keys: %v", keys(resp.Evidence))
	}
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Without a readable resfile the console table is read.
func TestElbenchoConsoleFallback(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("init1")
	f.common(h)
	h.Reply(`^elbencho `, moduletest.Reply{Stdout: f.console})
	h.Reply(`^cat -- `, moduletest.Reply{RC: 1, Stderr: "cat: no such file\n"})
	resp := apply(t, New(), h, "tool = \"elbencho\"\npath = \"/data/f\"\nmode = \"write\"\nblock_size = \"4M\"\nsize = \"4G\"")
	if resp.Failed || !resp.Changed {
		t.Fatalf("failed=%t changed=%t %s", resp.Failed, resp.Changed, resp.Message)
	}
	if got := num(t, resp.Outputs, "mib_s"); got <= 0 {
		t.Errorf("mib_s = %v", got)
	}
	if got := num(t, resp.Outputs, "runtime_s"); got <= 0 {
		t.Errorf("runtime_s = %v", got)
	}
}

func TestElbenchoErrors(t *testing.T) {
	f := load(t)
	for _, c := range []struct {
		name  string
		reply moduletest.Reply
		want  string
		isErr bool
	}{
		{"exit", moduletest.Reply{RC: 1, Stderr: "ERROR: Unable to open benchmark path: /dev/nvme1n1 SysErr: No such file or directory\n"}, "elbencho on init4 exited 1: ERROR: Unable to open", false},
		{"garbled", moduletest.Reply{Stdout: "OPERATION   RESULT TYPE         FIRST DONE   LAST DONE\n=========== ================    ==========   =========\nREAD        Elapsed time     :   what\n"}, "on init4: elbencho", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := moduletest.NewFakeHost("init4")
			f.common(h)
			h.Reply(`^elbencho `, c.reply)
			h.Reply(`^cat -- `, moduletest.Reply{RC: 1})
			resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, New(), elbBody)})
			msg := resp.Message
			if err != nil {
				msg = err.Error()
			}
			if (err != nil) != c.isErr || (!c.isErr && !resp.Failed) || !strings.Contains(msg, c.want) {
				t.Errorf("err=%v failed=%t message %q, want %q", err, resp.Failed, msg, c.want)
			}
			if cmds := h.Commands(); cmds[len(cmds)-1] != "rm -rf -- "+tmp {
				t.Errorf("temp dir not removed: %v", cmds)
			}
		})
	}
}

func TestFioSamples(t *testing.T) {
	for _, c := range []struct {
		sample, mode string
		mibMin       float64
	}{
		{"fio/randread-4k.json", "randread", 1},
		{"fio/seqread-1m.json", "read", 100},
		{"fio/randread-4k.jsonplus.json", "randread", 1},
		{"fio/randread-4k-normal-plus-json-combined.txt", "randread", 1},
	} {
		t.Run(c.sample, func(t *testing.T) {
			h := moduletest.NewFakeHost("init1")
			load(t).common(h)
			h.Reply(`^fio `, moduletest.Reply{Stdout: string(samples.Read(t, c.sample))})
			resp := apply(t, New(), h, "tool = \"fio\"\npath = \"/dev/nvme1n1\"\nmode = \""+c.mode+"\"")
			o := resp.Outputs
			if num(t, o, "mib_s") < c.mibMin || num(t, o, "iops") <= 0 || num(t, o, "lat_avg_us") <= 0 || num(t, o, "lat_p99_us") < num(t, o, "lat_p50_us") {
				t.Errorf("outputs = %#v", o)
			}
		})
	}
}

func TestFioFailures(t *testing.T) {
	for _, c := range []struct{ sample, want string }{
		{"fio/error-enotdir-normal.txt", "fio on init2 exited 1"},
		{"fio/error-bad-ioengine.txt", "fio on init2 exited 1"},
	} {
		h := moduletest.NewFakeHost("init2")
		load(t).common(h)
		h.Reply(`^fio `, moduletest.Reply{RC: 1, Stdout: string(samples.Read(t, c.sample))})
		resp := apply(t, New(), h, "tool = \"fio\"\npath = \"/x\"\ncpu_capture = false")
		if !resp.Failed || !strings.Contains(resp.Message, c.want) {
			t.Errorf("%s: failed=%t message %q", c.sample, resp.Failed, resp.Message)
		}
	}
}

func TestPerftestClient(t *testing.T) {
	for _, c := range []struct {
		sample, tool string
		check        func(t *testing.T, resp module.ApplyResponse)
	}{
		{"perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt", "ib_write_lat", func(t *testing.T, resp module.ApplyResponse) {
			o := resp.Outputs
			if num(t, o, "lat_avg_us") != 1.47 || num(t, o, "lat_min_us") != 1.42 || num(t, o, "lat_p99_us") != 1.57 || num(t, o, "lat_p999_us") != 1.93 {
				t.Errorf("latency = %#v", o)
			}
			if !isNull(o, "mib_s") {
				t.Error("a latency test reports no throughput")
			}
		}},
		{"perftest/ib_read_lat-server-and-client-ib-mlx4-cpufreq-warning.txt", "ib_read_lat", nil},
		{"perftest/ib_write_bw-client-softroce-rxe0-65536.txt", "ib_write_bw", func(t *testing.T, resp module.ApplyResponse) {
			if g, m := num(t, resp.Outputs, "gbps"), num(t, resp.Outputs, "mib_s"); g <= 0 || m <= 0 {
				t.Errorf("gbps %v mib_s %v", g, m)
			}
		}},
		{"perftest/ib_write_bw-report_gbits-multi-qp-PARTIAL-dgx-spark.txt", "ib_write_bw", nil},
		{"perftest/ib_write_bw-conflicting-cpu-freq-warning-rfaas.txt", "ib_write_bw", nil},
		{"perftest/ib_read_bw-client-softroce-inline-warning.txt", "ib_read_bw", nil},
	} {
		t.Run(c.sample, func(t *testing.T) {
			out := string(samples.Read(t, c.sample))
			if i := strings.Index(out, "\n"+c.tool+" "); i >= 0 && strings.Contains(c.sample, "server-and-client") {
				out = out[i:] // the client half
			}
			h := moduletest.NewFakeHost("client1")
			load(t).common(h)
			h.Reply(`^`+c.tool+` `, moduletest.Reply{Stdout: out})
			resp := apply(t, New(), h, "tool = \""+c.tool+"\"\nserver_address = \"10.0.0.1\"")
			if resp.Failed {
				t.Fatal(resp.Message)
			}
			if c.check != nil {
				c.check(t, resp)
			}
		})
	}
}

func TestPerftestNoDevice(t *testing.T) {
	for _, s := range []string{"perftest/no-hca-ib_write_lat.txt", "perftest/no-hca-ib_write_bw-client.txt", "perftest/no-hca-ib_read_lat.txt"} {
		h := moduletest.NewFakeHost("client1")
		load(t).common(h)
		h.Reply(`^ib_`, moduletest.Reply{RC: 1, Stdout: string(samples.Read(t, s))})
		tool := "ib_write_lat"
		if strings.Contains(s, "_bw") {
			tool = "ib_write_bw"
		}
		resp := apply(t, New(), h, "tool = \""+tool+"\"\nserver_address = \"10.0.0.1\"")
		if !resp.Failed || !strings.Contains(resp.Message, "no RDMA device") || !strings.Contains(resp.Message, "client1") {
			t.Errorf("%s: failed=%t %q", s, resp.Failed, resp.Message)
		}
	}
}

// A server no client came to is stopped after max_wait and fails.
func TestCollectStopsAWaitingServer(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("target1")
	s := newServer(f)
	s.started = true
	s.install(h)
	h.Reply(`^kill -0 4242`, moduletest.Reply{}) // alive
	h.Reply(`^kill 4242`, moduletest.Reply{})
	resp := apply(t, New(), h, "tool = \"ib_write_bw\"\nrole = \"collect\"\nmax_wait = \"1s\"")
	if !resp.Failed || !strings.Contains(resp.Message, "still running after 1s") {
		t.Errorf("failed=%t %q", resp.Failed, resp.Message)
	}
	if !contains(h.Commands(), "kill 4242 2>/dev/null") || !contains(h.Commands(), "rm -rf -- /tmp/prova-perftest-ib_write_bw") {
		t.Errorf("commands = %v", h.Commands())
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestValidate(t *testing.T) {
	for body, want := range map[string]string{
		"tool = \"elbencho\"":                                "elbencho needs path",
		"tool = \"ib_write_lat\"":                            "needs server_address",
		"tool = \"fio\"\npath = \"/x\"\nrole = \"server\"":   "for perftest tools only",
		"tool = \"fio\"\npath = \"/x\"\nruntime = \"soon\"":  "not a duration",
		"tool = \"fio\"\npath = \"/x\"\nblock_size = \"4Q\"": "not a size",
		"tool = \"dd\"":                                      "must be one of elbencho, fio",
		"tool = \"fio\"\npath = \"/x\"\nmode = \"trim\"":     "must be one of read, write",
	} {
		f := decodeDiags(t, body)
		if !strings.Contains(f, want) {
			t.Errorf("%q: diagnostics %q, want %q", body, f, want)
		}
	}
}

func TestBytes(t *testing.T) {
	for in, want := range map[string]int64{"4K": 4096, "1M": 1 << 20, "4KiB": 4096, "512": 512, "2g": 2 << 30} {
		if got, err := bytesOf(in); err != nil || got != want {
			t.Errorf("bytesOf(%q) = %d, %v", in, got, err)
		}
	}
}

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
	resp := apply(t, New(), h, elbBody)
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
	resp := apply(t, New(), h, elbBody)
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
	moduletest.Run(t, NewCPUCapture(), []moduletest.Case{{
		Name: "cpu-capture",
		Body: `duration = "2s"`,
		Setup: func(h *moduletest.FakeHost) {
			h.Reply(`^LC_ALL=C mpstat -P ALL 1 2$`, moduletest.Reply{Stdout: f.mpstat})
		},
	}})
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
	args := decode(t, New(), strings.Replace(elbBody, "2s", "60s", 1))
	var last module.Progress
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args, Progress: func(p module.Progress) {
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
