package rdmalat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

func decode(t *testing.T, body string) cty.Value {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(body), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if d := New().Validate(v); d.HasErrors() {
		t.Fatal(d.Error())
	}
	return v
}

// client output: the real sample with its latency row's average replaced.
func clientOutput(t *testing.T, avg float64) string {
	s := string(samples.Read(t, "perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt"))
	return strings.Replace(s, "1.47                1.47", fmt.Sprintf("1.47                %.2f", avg), 1)
}

func cluster(t *testing.T, lat map[string]float64) (module.ClusterRequest, map[string]*moduletest.FakeHost, *busyCheck) {
	req := module.ClusterRequest{Hosts: map[string]module.Host{}}
	hosts := map[string]*moduletest.FakeHost{}
	bc := &busyCheck{busy: map[string]bool{}}
	for _, name := range []string{"n1", "n2", "n3", "n4"} {
		h := moduletest.NewFakeHost(name)
		name := name
		h.Handle(`^ib_write_lat .* -p 18515$`, func(string, []byte) moduletest.Reply {
			return moduletest.Reply{Stdout: "server done\n"}
		})
		h.Handle(`^ib_write_lat .* -p 18515 \S+$`, func(cmd string, _ []byte) moduletest.Reply {
			peer := cmd[strings.LastIndex(cmd, " ")+1:]
			if err := bc.enter(name, peer); err != nil {
				t.Error(err)
			}
			defer bc.leave(name, peer)
			return moduletest.Reply{Stdout: clientOutput(t, lat[name]+lat[peer])}
		})
		hosts[name] = h
		req.Hosts[name] = h
		req.Order = append(req.Order, name)
	}
	return req, hosts, bc
}

// busyCheck fails when a host is in two tests at once.
type busyCheck struct {
	mu   sync.Mutex
	busy map[string]bool
}

func (b *busyCheck) enter(a, c string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.busy[a] || b.busy[c] {
		return fmt.Errorf("%s or %s is already in a test", a, c)
	}
	b.busy[a], b.busy[c] = true, true
	return nil
}

func (b *busyCheck) leave(a, c string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.busy[a], b.busy[c] = false, false
}

func TestAllPairsNamesTheOutlier(t *testing.T) {
	req, _, _ := cluster(t, map[string]float64{"n1": 0.7, "n2": 0.8, "n3": 0.75, "n4": 6})
	req.Args = decode(t, `mode = "all"
concurrency = 2`)
	out, err := New().ApplyCluster(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"n1", "n2", "n3"} {
		if out[h].Failed {
			t.Errorf("%s failed: %s", h, out[h].Message)
		}
		if n := out[h].Outputs.GetAttr("pairs").LengthInt(); n != 3 {
			t.Errorf("%s took part in %d tests, want 3", h, n)
		}
	}
	r := out["n4"]
	if !r.Failed || !r.Outputs.GetAttr("outlier").True() || !strings.Contains(r.Message, "cluster median") {
		t.Fatalf("n4 = %+v", r)
	}
	if r.Checks[0].Verdict != "fail" || !strings.Contains(r.Checks[0].Threshold, "2.0 x cluster median") {
		t.Errorf("check = %+v", r.Checks[0])
	}
}

func TestReferenceModeAndAbsoluteLimit(t *testing.T) {
	req, hosts, _ := cluster(t, map[string]float64{"n1": 1, "n2": 1, "n3": 1, "n4": 1, "10.10.0.2": 1})
	req.Args = decode(t, `reference = "n2"
max_lat_us = 1.5
addresses = { n2 = "10.10.0.2" }`)
	out, err := New().ApplyCluster(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"n1", "n3", "n4"} {
		cmds := hosts[h].Commands()
		if len(cmds) != 1 || !strings.HasSuffix(cmds[0], " 10.10.0.2") {
			t.Errorf("%s ran %v; want one client run against the reference's address", h, cmds)
		}
		if !out[h].Failed || !strings.Contains(out[h].Message, "above the 1.5 µs limit") {
			t.Errorf("%s: 2 µs must fail a 1.5 µs limit: %+v", h, out[h])
		}
	}
	if n := len(hosts["n2"].Commands()); n != 3 {
		t.Errorf("the reference ran %d servers, want 3", n)
	}
}

func TestClientRetriesWhileServerStarts(t *testing.T) {
	req, hosts, _ := cluster(t, map[string]float64{"n1": 1, "n2": 1})
	req.Order = []string{"n1", "n2"}
	var mu sync.Mutex
	tries := 0
	hosts["n2"].Handle(`^ib_write_lat .* n1$`, func(string, []byte) moduletest.Reply {
		mu.Lock()
		defer mu.Unlock()
		tries++
		if tries < 3 {
			return moduletest.Reply{Stderr: "Couldn't connect to n1:18515\nUnable to open file descriptor for socket connection\n", RC: 1}
		}
		return moduletest.Reply{Stdout: clientOutput(t, 2)}
	})
	req.Args = decode(t, ``)
	l := New()
	l.retryEvery = time.Millisecond
	out, err := l.ApplyCluster(context.Background(), req)
	if err != nil || out["n2"].Failed || tries != 3 {
		t.Fatalf("tries=%d err=%v out=%+v", tries, err, out["n2"])
	}
}

func TestNoDeviceIsAFailureNotAZero(t *testing.T) {
	req, hosts, _ := cluster(t, nil)
	req.Order = []string{"n1", "n2"}
	hosts["n2"].Reply(`^ib_write_lat .* n1$`, moduletest.Reply{Stdout: string(samples.Read(t, "perftest/no-hca-ib_write_lat.txt")), RC: 1})
	req.Args = decode(t, ``)
	out, err := New().ApplyCluster(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !out["n2"].Failed || !out["n1"].Failed || out["n2"].Outputs.GetAttr("lat_avg_us").IsKnown() && !out["n2"].Outputs.GetAttr("lat_avg_us").IsNull() {
		t.Fatalf("a failed test must fail both ends and report no latency: %+v", out["n2"])
	}
}

func TestUnreachableHostAborts(t *testing.T) {
	req, hosts, _ := cluster(t, nil)
	hosts["n3"].Unreachable()
	req.Args = decode(t, ``)
	_, err := New().ApplyCluster(context.Background(), req)
	if !module.IsUnreachable(err) {
		t.Fatalf("err = %v", err)
	}
}

func TestFailedPairsBlameTheHostThatFailsEverything(t *testing.T) {
	req, hosts, _ := cluster(t, map[string]float64{"n1": 1, "n2": 1, "n3": 1, "n4": 1})
	for _, h := range []string{"n1", "n2", "n3"} {
		hosts[h].Reply(`^ib_write_lat .* n4$`, moduletest.Reply{Stdout: "Completion with error at client\n", RC: 1})
	}
	hosts["n4"].Reply(`^ib_write_lat .* -p 18515 \S+$`, moduletest.Reply{Stdout: "Completion with error at client\n", RC: 1})
	req.Args = decode(t, `mode = "all"`)
	out, err := New().ApplyCluster(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if !out["n4"].Failed {
		t.Error("n4 fails every test and must fail")
	}
	for _, h := range []string{"n1", "n2", "n3"} {
		if out[h].Failed || !strings.Contains(out[h].Message, "problem is on its side") {
			t.Errorf("%s passed its other tests and must not be blamed: %+v", h, out[h].Message)
		}
	}
}

// Validate checks the known arguments on the typed struct and leaves
// unknown ones for later.
func TestValidateChecksKnownArguments(t *testing.T) {
	f, _ := hclsyntax.ParseConfig([]byte(`
mode       = "pairs"
tool       = "ib_write_bw"
iterations = 0
size       = var.size
`), "t.hcl", hcl.InitialPos)
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"var": cty.ObjectVal(map[string]cty.Value{"size": cty.UnknownVal(cty.Number)})}}
	v, diags := hcldec.Decode(f.Body, New().Spec(), ctx)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var got []string
	for _, d := range New().Validate(v) {
		got = append(got, d.Summary)
	}
	if want := "Invalid mode|Invalid tool|Invalid iterations"; strings.Join(got, "|") != want {
		t.Errorf("Validate = %q, want %q", got, want)
	}
}

// inflight counts the commands running on a host.
type inflight struct {
	*moduletest.FakeHost
	n *atomic.Int32
}

func (h inflight) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	h.n.Add(1)
	defer h.n.Add(-1)
	rc, err := h.FakeHost.Run(ctx, cmd, stdin, stdout, stderr)
	if ctx.Err() != nil {
		// A command that was stopped takes a while to end on a real
		// host; yield so that a module that does not wait is caught.
		for range 1000 {
			runtime.Gosched()
		}
	}
	return rc, err
}

// A client that fails at once must not leave its server running: the
// module waits for the server's command to end before it returns, so no
// perftest server outlives the step on a host.
func TestFailedClientLeavesNoServerRunning(t *testing.T) {
	var running atomic.Int32
	req := module.ClusterRequest{Hosts: map[string]module.Host{}}
	for _, name := range []string{"n1", "n2"} {
		h := moduletest.NewFakeHost(name)
		h.Hang(`^ib_write_lat .* -p 18515$`)
		h.Reply(`^ib_write_lat .* -p 18515 \S+$`, moduletest.Reply{RC: -1, Err: errors.New("connection reset")})
		req.Hosts[name] = inflight{h, &running}
		req.Order = append(req.Order, name)
	}
	req.Args = decode(t, ``)
	if _, err := New().ApplyCluster(context.Background(), req); err != nil && !module.IsUnreachable(err) {
		t.Fatal(err)
	}
	if n := running.Load(); n != 0 {
		t.Fatalf("%d command(s) still running on the hosts after the module returned", n)
	}
}
