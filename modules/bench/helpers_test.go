package bench

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

const tmp = "/tmp/prova-bench.abc123"

// fixture holds the samples the fake hosts answer with.
type fixture struct {
	mpstat, resfile, console, fioJSON, lat, bwServer string
}

func load(t *testing.T) fixture {
	t.Helper()
	resfile := string(samples.Read(t, "elbencho/resfile-sections-latpercent-lathisto-FIXTURE.txt"))
	return fixture{
		mpstat:  string(samples.Read(t, "mpstat/mpstat-P-ALL-1-2-C-locale.txt")),
		resfile: resfile,
		console: string(samples.Read(t, "elbencho/console-v3-write-1thread-direct-issue75.txt")),
		fioJSON: string(samples.Read(t, "fio/randread-4k.json")),
		lat:     string(samples.Read(t, "perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt")),
		// The sample starts with the author's prompt line, which perftest's
		// parser refuses as not perftest's: the tool's output only.
		bwServer: string(samples.Sections(t, "perftest/ib_write_bw-server-a-mlx5-ib-tabs.txt", nil)[0]),
	}
}

// common scripts mktemp, mpstat and rm.
func (f fixture) common(h *moduletest.FakeHost) {
	h.Reply(`^mktemp -d /tmp/prova-bench\.XXXXXX$`, moduletest.Reply{Stdout: tmp + "\n"})
	h.Reply(`^LC_ALL=C mpstat -P ALL 1 \d+$`, moduletest.Reply{Stdout: f.mpstat})
	h.Reply(`^rm -rf -- `, moduletest.Reply{})
}

func (f fixture) elbencho(h *moduletest.FakeHost) {
	f.common(h)
	h.Reply(`^(numactl --cpunodebind=\d+ --membind=\d+ )?elbencho `, moduletest.Reply{Stdout: "(console table)\n"})
	h.Reply(`^cat -- `+tmp+`/elbencho\.res$`, moduletest.Reply{Stdout: f.resfile})
}

func decode(t *testing.T, m module.Module, body string) cty.Value {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(body), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	args, diags := hcldec.Decode(file.Body, m.Spec(), nil)
	diags = append(diags, m.Validate(args)...)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return args
}

func apply(t *testing.T, m module.Module, h module.Host, body string) module.ApplyResponse {
	t.Helper()
	resp, err := m.Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, m, body)})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func num(t *testing.T, v cty.Value, path ...string) float64 {
	t.Helper()
	for _, p := range path {
		v = v.GetAttr(p)
	}
	if v.IsNull() {
		t.Fatalf("%s is null", strings.Join(path, "."))
	}
	f, _ := v.AsBigFloat().Float64()
	return f
}

func isNull(v cty.Value, path ...string) bool {
	for _, p := range path {
		v = v.GetAttr(p)
	}
	return v.IsNull()
}

func decodeDiags(t *testing.T, m module.Module, body string) string {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(body), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	args, diags := hcldec.Decode(file.Body, m.Spec(), nil)
	if !diags.HasErrors() {
		diags = append(diags, m.Validate(args)...)
	}
	return diags.Error()
}
