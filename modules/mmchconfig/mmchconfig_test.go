package mmchconfig

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/modules/internal/gpfscmd/gpfsfake"
	"github.com/provadev/prova/parse"
)

var probes = []string{`^cat /proc/meminfo$`, `^PATH=\$PATH:/usr/lpp/mmfs/bin mmlsconfig -Y$`}

func cluster(cfg ...gpfsfake.Entry) *gpfsfake.Cluster {
	return &gpfsfake.Cluster{
		Nodes:  []gpfsfake.Node{{Name: "fake1", IP: "10.10.1.11", Quorum: true}, {Name: "gpfs02", IP: "10.10.1.12"}},
		Config: cfg,
	}
}

const rdmaBody = `
attributes = {
  verbsRdma  = "enable"
  verbsPorts = "mlx5_0/1 mlx5_1/1"
  pagepool   = "4G"
}`

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), []moduletest.Case{
		{
			Name:   "enable_rdma",
			Body:   rdmaBody,
			Setup:  cluster(gpfsfake.Entry{Attr: "clusterName", Value: "fake.prova"}, gpfsfake.Entry{Attr: "pagepool", Value: "1G"}).Attach,
			Probes: probes,
		},
		{
			Name: "already_configured",
			Body: rdmaBody,
			Setup: cluster(gpfsfake.Entry{Attr: "verbsRdma", Value: "enable"}, gpfsfake.Entry{Attr: "verbsPorts", Value: "mlx5_0/1  mlx5_1/1"},
				gpfsfake.Entry{Attr: "pagepool", Value: "4096M"}).Attach,
			Probes: probes,
		},
		{
			Name: "node_class",
			Body: `
attributes = { verbsPorts = "mlx5_0/1", verbsRdmaSend = "yes" }
nodes      = "nsdNodes"
immediate  = true`,
			Setup: cluster(gpfsfake.Entry{Attr: "verbsPorts", Value: "mlx5_0/1"},
				gpfsfake.Entry{Attr: "verbsPorts", Value: "mlx5_1/1", Nodes: []string{"nsdNodes"}}).Attach,
			Probes: probes[1:],
		},
		{
			Name: "fails",
			Body: `attributes = { verbsRdma = "enable" }`,
			Setup: func(h *moduletest.FakeHost) {
				cluster().Attach(h)
				h.Reply(`mmchconfig `, moduletest.Reply{RC: 1, Stderr: "mmchconfig: Unable to obtain the GPFS configuration file lock.\nmmchconfig: Command failed. Examine previous error messages to determine cause.\n"})
			},
			Probes:        probes[1:],
			WantFailed:    true,
			NotIdempotent: true,
		},
	})
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
	if d := New().Validate(v); d.HasErrors() {
		t.Fatal(d)
	}
	return v
}

func TestPlanShowsChanges(t *testing.T) {
	h := moduletest.NewFakeHost("fake1")
	cluster(gpfsfake.Entry{Attr: "verbsRdma", Value: "disable"}, gpfsfake.Entry{Attr: "pagepool", Value: "4G"}).Attach(h)
	p, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: decode(t, rdmaBody)})
	if err != nil {
		t.Fatal(err)
	}
	want := "verbsPorts: (unset) -> mlx5_0/1 mlx5_1/1; verbsRdma: disable -> enable"
	if p.Action != module.Change || p.Summary != want || len(p.Changes) != 2 {
		t.Fatalf("plan = %+v, want summary %q", p, want)
	}
}

func TestApplyOneQuotedCommand(t *testing.T) {
	c := cluster()
	h := moduletest.NewFakeHost("fake1")
	c.Attach(h)
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, rdmaBody+"\nnodes = \"gpfs01,gpfs02\"")})
	if err != nil || !resp.Changed || resp.Failed {
		t.Fatalf("resp = %+v, err = %v", resp, err)
	}
	var runs []string
	for _, cmd := range h.Commands() {
		if strings.Contains(cmd, "mmchconfig") {
			runs = append(runs, cmd)
		}
	}
	want := "PATH=$PATH:/usr/lpp/mmfs/bin mmchconfig 'pagepool=4G,verbsPorts=mlx5_0/1 mlx5_1/1,verbsRdma=enable' -N gpfs01,gpfs02"
	if len(runs) != 1 || runs[0] != want {
		t.Fatalf("mmchconfig runs = %q, want [%q]", runs, want)
	}
	o := resp.Outputs
	if got := o.GetAttr("changed_attributes"); got.LengthInt() != 3 || !o.GetAttr("restart_required").True() {
		t.Errorf("outputs = %#v", o)
	}
}

// TestCommandThroughRealShell runs the built command through /bin/sh with a
// stand-in mmchconfig that prints its arguments, one per line.
func TestCommandThroughRealShell(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mmchconfig"), []byte("#!/bin/sh\nprintf '%s\\n' \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var a args
	if err := module.Decode(decode(t, rdmaBody+"\nnodes = \"nsdNodes\"\nimmediate = true"), &a); err != nil {
		t.Fatal(err)
	}
	cmd := Command([]module.AttrChange{{Name: "verbsPorts", To: "mlx5_0/1 mlx5_1/1"}, {Name: "verbsRdma", To: "enable"}}, a)
	c := exec.Command("/bin/sh", "-c", cmd)
	c.Env = []string{"PATH=" + dir + ":/usr/bin:/bin"}
	out, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "verbsPorts=mlx5_0/1 mlx5_1/1,verbsRdma=enable\n-i\n-N\nnsdNodes\n"; string(out) != want {
		t.Fatalf("mmchconfig got argv %q, want %q", out, want)
	}
}

func TestPagepoolRefusedBeforeAnyChange(t *testing.T) {
	c := cluster()
	c.MemTotalKB = 8 << 20 // 8 GiB
	h := moduletest.NewFakeHost("fake1")
	c.Attach(h)
	args := decode(t, rdmaBody) // 4G = 50%: allowed
	if _, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: args}); err != nil {
		t.Fatalf("4G of 8G refused: %v", err)
	}
	args = decode(t, `attributes = { pagepool = "6G", verbsRdma = "enable" }`)
	_, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: args})
	var pe *PagepoolError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "refusing pagepool=6G: it is 75% of fake1's memory (MemTotal 8G)") {
		t.Fatalf("Plan: %v", err)
	}
	h.ResetCommands()
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
	if err != nil || !resp.Failed || resp.Changed || !strings.Contains(resp.Message, "nothing was changed") {
		t.Fatalf("Apply = %+v, %v", resp, err)
	}
	for _, cmd := range h.Commands() {
		if strings.Contains(cmd, "mmchconfig") || strings.Contains(cmd, "mmlsconfig") {
			t.Errorf("Apply ran %q after refusing", cmd)
		}
	}
	if len(c.Events()) != 0 {
		t.Errorf("cluster changed: %q", c.Events())
	}
	// A larger fraction lets it through.
	args = decode(t, `
attributes = { pagepool = "6G" }
pagepool_max_fraction = 0.8`)
	if _, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: args}); err != nil {
		t.Fatalf("6G of 8G at 0.8: %v", err)
	}
}

func TestSampleReplies(t *testing.T) {
	for _, tc := range []struct {
		rel     string
		warning bool
	}{
		{"gpfs/mmchconfig-success-propagating-4.2.3.txt", false},
		{"gpfs/mmchconfig-tiebreakerDisks-and-mmstartup-2023.txt", false},
	} {
		out := sampleOutput(t, tc.rel)
		h := moduletest.NewFakeHost("fake1")
		cluster().Attach(h)
		h.Reply(`mmchconfig `, moduletest.Reply{Stdout: out})
		resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, `attributes = { verbsRdma = "enable" }`)})
		if err != nil || resp.Failed || !resp.Changed || resp.Evidence["mmchconfig"] != out {
			t.Errorf("%s: resp = %+v, err = %v", tc.rel, resp, err)
		}
	}
}

// sampleOutput returns the mmchconfig output in a sample: the lines after
// the pasted mmchconfig command up to the next command.
func sampleOutput(t *testing.T, rel string) string {
	t.Helper()
	var b strings.Builder
	in := false
	for _, l := range strings.Split(string(samples.Read(t, rel)), "\n") {
		s := strings.TrimSpace(l)
		switch {
		case strings.Contains(s, "# mmchconfig") || strings.HasSuffix(s, "./mmchconfig"):
			in = true
		case in && (strings.HasPrefix(s, "mmstartup -a") || strings.HasPrefix(s, "#")):
			return b.String()
		case in && s != "":
			b.WriteString(s + "\n")
		}
	}
	return b.String()
}

func TestParseErrorNamesHost(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs05")
	h.Reply(`mmlsconfig -Y$`, moduletest.Reply{Stdout: "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\nnot a row\n"})
	_, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: decode(t, `attributes = { verbsRdma = "enable" }`)})
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mmlsconfig -Y" || pe.Line != 2 || !strings.Contains(err.Error(), "gpfs05") {
		t.Fatalf("err = %v", err)
	}
}

func TestValidate(t *testing.T) {
	for src, want := range map[string]string{
		`attributes = {}`:                                         "No attributes",
		`attributes = { "bad name" = "x" }`:                       "Invalid attribute name",
		`attributes = { tiebreakerDisks = "a,b" }`:                "cannot contain one",
		`attributes = { pagepool = "lots" }`:                      "Invalid pagepool",
		`attributes = { verbsRdma = "" }`:                         "Empty attribute value",
		"attributes = { a = \"b\" }\npagepool_max_fraction = 1.5": "Invalid pagepool_max_fraction",
		"attributes = { a = \"b\" }\nnodes = \"gpfs01, gpfs02\"":  "Invalid nodes",
	} {
		f, _ := hclsyntax.ParseConfig([]byte(src), "s.hcl", hcl.InitialPos)
		v, diags := hcldec.Decode(f.Body, New().Spec(), nil)
		diags = append(diags, New().Validate(v)...)
		if !strings.Contains(diags.Error(), want) {
			t.Errorf("%s: diags %q, want %q", src, diags.Error(), want)
		}
	}
}

func TestRestartRequired(t *testing.T) {
	for attr, want := range map[string]bool{"verbsRdma": true, "VERBSPORTS": true, "pagepool": true, "maxMBpS": false, "autoload": false} {
		if RestartRequired(attr) != want {
			t.Errorf("RestartRequired(%s) = %t", attr, !want)
		}
	}
}
