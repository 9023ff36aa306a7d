package gpfslog

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

const tail = `(?s)^awk -v h=\d+ -v t=\d+ -v n=\d+ -- .* /var/adm/ras/mmfs\.log\.latest$`

const verbsRun = `2025-09-12_15:00:58.100+0200: runmmfs starting
2025-09-12_15:00:59.000+0200: [I] VERBS RDMA starting with verbsRdmaCm=no verbsRdmaSend=no verbsRdmaUseMultiCqThreads=yes verbsRdmaUseCompVectors=yes
2025-09-12_15:00:59.010+0200: [I] VERBS RDMA library libibverbs.so loaded and initialized.
2025-09-12_15:00:59.020+0200: [I] VERBS RDMA started.
2025-09-12_15:01:03.600+0200: [I] VERBS RDMA connecting to 10.25.80.144 (n144) on mlx5_0 port 1 fabnum 0 index 0 cookie 1
2025-09-12_15:01:03.700+0200: [I] VERBS RDMA connected to 10.25.80.144 (n144) on mlx5_0 port 1 fabnum 0 sl 0 index 0 cookie 1
`

// logSample is the first mmfs.log stretch in the startup sample (after its
// tail -f command line, up to the ^C).
func logSample(t *testing.T) string {
	t.Helper()
	s := string(samples.Read(t, "gpfs/mmstartup-a-then-mmfslog-then-mmgetstate-active-4.2.3.txt"))
	s = s[strings.Index(s, "mmfslog \n")+len("mmfslog \n"):]
	return s[:strings.Index(s, "^C")]
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "verbs_run", Setup: func(h *moduletest.FakeHost) { h.Reply(tail, moduletest.Reply{Stdout: verbsRun}) }},
		{Name: "custom_path", Body: `path = "/var/mmfs/gen/mmfslog"`, Setup: func(h *moduletest.FakeHost) {
			h.Reply(`(?s)^awk -v h=\d+ -v t=\d+ -v n=\d+ -- .* /var/mmfs/gen/mmfslog$`, moduletest.Reply{Stdout: logSample(t)})
		}},
	}, `^awk -v h=\d+ -v t=\d+ -v n=\d+ -- `))
}

func decode(t *testing.T, src string) cty.Value {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "step.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	v, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return v
}

func run(t *testing.T, r moduletest.Reply) (cty.Value, module.ApplyResponse) {
	t.Helper()
	h := moduletest.NewFakeHost("gpfs01")
	h.Reply(tail, r)
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Outputs, resp
}

func join(v cty.Value) string {
	var s []string
	for it := v.ElementIterator(); it.Next(); {
		_, e := it.Element()
		s = append(s, e.AsString())
	}
	return strings.Join(s, ",")
}

func TestOnlyTheCurrentRunCounts(t *testing.T) {
	old := "2025-09-11_10:00:00.000+0200: runmmfs starting\n2025-09-11_10:00:01.000+0200: [E] VERBS RDMA library libibverbs.so not found\n"
	o, _ := run(t, moduletest.Reply{Stdout: old + verbsRun})
	if !o.GetAttr("verbs_started").True() || o.GetAttr("library_not_found").True() || join(o.GetAttr("connected_to")) != "n144" ||
		!o.GetAttr("start_found").True() || o.GetAttr("lines").AsBigFloat().String() != "6" {
		t.Fatalf("outputs %#v", o)
	}
	o, _ = run(t, moduletest.Reply{Stdout: old})
	if !o.GetAttr("library_not_found").True() || o.GetAttr("verbs_started").True() || join(o.GetAttr("errors")) != "VERBS RDMA library libibverbs.so not found" {
		t.Fatalf("outputs %#v", o)
	}
}

func TestSamples(t *testing.T) {
	o, _ := run(t, moduletest.Reply{Stdout: string(samples.Read(t, "gpfs/mmfs-log-verbs-rdma-closed-connection-errors.txt"))})
	if join(o.GetAttr("closed")) != "n139,n158,n150,n154,n142,n135" || o.GetAttr("errors").LengthInt() != 10 || o.GetAttr("start_found").True() {
		t.Errorf("closed-connection sample: %#v", o)
	}
	o, _ = run(t, moduletest.Reply{Stdout: string(samples.Read(t, "gpfs/mmfs-log-latest-tail-tcp-connects.txt"))})
	if o.GetAttr("connected_to").LengthInt() != 0 || o.GetAttr("lines").AsBigFloat().String() != "20" {
		t.Errorf("tcp sample: %#v", o)
	}
	o, _ = run(t, moduletest.Reply{Stdout: logSample(t)})
	if o.GetAttr("verbs_started").True() || o.GetAttr("errors").LengthInt() != 0 {
		t.Errorf("startup sample: %#v", o)
	}
}

func TestMissingLogAndErrors(t *testing.T) {
	o, resp := run(t, moduletest.Reply{RC: 1, Stderr: "tail: cannot open '/var/adm/ras/mmfs.log.latest' for reading: No such file or directory\n"})
	if o.GetAttr("lines").AsBigFloat().String() != "0" || !strings.Contains(resp.Message, "does not exist") {
		t.Errorf("missing log: %#v %q", o, resp.Message)
	}
	h := moduletest.NewFakeHost("gpfs06")
	h.Reply(tail, moduletest.Reply{Stdout: "2025-13-45_99:00:00.000+0200: [I] nonsense\n"})
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)})
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mmfs.log" || pe.Line != 1 || !strings.Contains(err.Error(), "gpfs06") {
		t.Errorf("err = %v", err)
	}
	h.Reply(tail, moduletest.Reply{RC: 1, Stderr: "tail: error reading: Input/output error\n"})
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, ``)}); err == nil || !strings.Contains(err.Error(), "on gpfs06 exited 1") {
		t.Errorf("err = %v", err)
	}
}
