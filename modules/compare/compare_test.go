package compare

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
)

// The typical magnitudes of DOMAIN.md §2 on 100GbE, judged by the first
// profile (still readable: a record judged by it is judged the same way).
const healthy = `
rdma     = { lat_avg_us = 25.2, cpu = { soft_pct = 1.1, busy_cores = 1.6 } }
tcp      = { lat_avg_us = 90.0, cpu = { soft_pct = 8.0, busy_cores = 10.4 } }
seq_rdma = { mib_s = 11500 }
seq_tcp  = { mib_s = 11300 }
line_rate_gbps = 100
profile = "prova-default/1"
`

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), []moduletest.Case{
		{Name: "pass", Body: healthy},
		{Name: "fail", Body: strings.Replace(healthy, "25.2", "61", 1), WantFailed: true},
		{Name: "pass-v2", Body: healthyV2},
		{Name: "fail-v2-high-queue-depth", Body: strings.Replace(healthyV2, "in_flight = 1, lat_p50_us = 24.1", "in_flight = 512, lat_p50_us = 24.1", 1), WantFailed: true},
	})
}

func decode(t *testing.T, body string) cty.Value {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(body), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	args, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	diags = append(diags, New().Validate(args)...)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return args
}

func apply(t *testing.T, body string) module.ApplyResponse {
	t.Helper()
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: moduletest.NewFakeHost("c"), Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func number(t *testing.T, resp module.ApplyResponse, name string) float64 {
	t.Helper()
	v := resp.Outputs.GetAttr(name)
	if v.IsNull() {
		t.Fatalf("%s is null", name)
	}
	f, _ := v.AsBigFloat().Float64()
	return f
}

func verdicts(resp module.ApplyResponse) string {
	o := resp.Outputs
	return strings.Join([]string{o.GetAttr("latency").AsString(), o.GetAttr("cpu").AsString(),
		o.GetAttr("bandwidth").AsString(), o.GetAttr("verdict").AsString()}, " ")
}

func TestVerdicts(t *testing.T) {
	for _, c := range []struct {
		name, body, want string
		failed           bool
		message          string
	}{
		{"healthy", healthy, "pass pass pass pass", false, ""},
		{"latency ratio too high", strings.Replace(healthy, "25.2", "45", 1), "fail pass pass fail", true, "RDMA latency is 0.50 of TCP's"},
		{"latency at the threshold", strings.Replace(healthy, "25.2", "40.5", 1), "pass pass pass pass", false, ""},
		{"soft barely down", strings.Replace(healthy, "soft_pct = 1.1", "soft_pct = 6.0", 1), "pass fail pass fail", true, "only 25 % below"},
		{"more busy cores", strings.Replace(healthy, "busy_cores = 1.6", "busy_cores = 11", 1), "pass fail pass fail", true, "not fewer than TCP's 10.4"},
		{"slow port warns", strings.Replace(healthy, "mib_s = 11500", "mib_s = 5900", 1), "pass pass warn warn", false, "RDMA 49 %"},
		{"no line rate warns", strings.Replace(healthy, "line_rate_gbps = 100", "", 1), "pass pass warn warn", false, "line rate unknown"},
		{"override latency", strings.Replace(healthy, "25.2", "45", 1) + "max_latency_ratio = 0.6\n", "pass pass pass pass", false, ""},
		{"override soft", strings.Replace(healthy, "soft_pct = 1.1", "soft_pct = 6.0", 1) + "min_soft_drop_pct = 20\n", "pass pass pass pass", false, ""},
		{"override share", strings.Replace(healthy, "mib_s = 11500", "mib_s = 5900", 1) + "min_bandwidth_share = 0.4\n", "pass pass pass pass", false, ""},
		{"rdma not measured", strings.Replace(healthy, "rdma     = { lat_avg_us = 25.2, cpu = { soft_pct = 1.1, busy_cores = 1.6 } }", "rdma = { lat_avg_us = null, cpu = null }", 1),
			"fail fail pass fail", true, "latency not measured over RDMA"},
		{"gbps instead of mib_s", strings.Replace(strings.Replace(healthy, "mib_s = 11500", "gbps = 96.5", 1), "mib_s = 11300", "gbps = 94.8", 1), "pass pass pass pass", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := apply(t, c.body)
			if got := verdicts(resp); got != c.want {
				t.Errorf("verdicts (latency cpu bandwidth overall) = %q, want %q\n%s", got, c.want, resp.Message)
			}
			if resp.Failed != c.failed {
				t.Errorf("failed = %t, want %t", resp.Failed, c.failed)
			}
			if !strings.Contains(resp.Message, c.message) {
				t.Errorf("message %q does not contain %q", resp.Message, c.message)
			}
			if len(resp.Checks) != 3 {
				t.Fatalf("checks = %v", resp.Checks)
			}
			for i, v := range strings.Fields(c.want)[:3] {
				if resp.Checks[i].Verdict != v || resp.Checks[i].Measured == "" || resp.Checks[i].Threshold == "" {
					t.Errorf("check %d = %+v, want verdict %s with measured and threshold", i, resp.Checks[i], v)
				}
			}
		})
	}
}

func TestNumbers(t *testing.T) {
	resp := apply(t, healthy)
	for name, want := range map[string]float64{
		"latency_ratio": 0.28, "soft_drop_pct": 86.25, "busy_cores_rdma": 1.6, "busy_cores_tcp": 10.4,
		"bw_share_rdma": 0.9647, "bw_share_tcp": 0.9479, "lat_rdma_us": 25.2, "soft_tcp_pct": 8,
	} {
		if got := number(t, resp, name); got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	tbl := resp.Outputs.GetAttr("table").AsString()
	for _, s := range []string{"latency (avg)", "90.0 µs", "25.2 µs", "ratio 0.28", "<= 0.45", "-86 %", "busy cores", "11500 MiB/s", "share of 100 Gb/s", "96 %", "verdict: pass (profile prova-default/1)", "small-block"} {
		if !strings.Contains(tbl, s) {
			t.Errorf("table lacks %q:\n%s", s, tbl)
		}
	}
}

// A bench step's whole result (common attributes and all) is accepted.
func TestWholeStepResult(t *testing.T) {
	resp := apply(t, `
rdma = { changed = false, failed = false, stdout = "", lat_avg_us = 30, lat_p50_us = 29, cpu = { soft_pct = 0.5, busy_cores = 1, usr_pct = 3, sys_pct = 4, samples = 3 } }
tcp  = { changed = false, failed = false, stdout = "", lat_avg_us = 100, lat_p50_us = 98, cpu = { soft_pct = 9, busy_cores = 9, usr_pct = 3, sys_pct = 14, samples = 3 } }
profile = "prova-default/1"
`)
	if got := number(t, resp, "latency_ratio"); got != 0.3 {
		t.Errorf("latency_ratio = %v", got)
	}
}

func TestValidate(t *testing.T) {
	for body, want := range map[string]string{
		"rdma = {}\ntcp = {}\nprofile = \"site/3\"":     "unknown threshold profile",
		"rdma = {}\ntcp = {}\nmin_bandwidth_share = 90": "min_bandwidth_share = 90",
		"rdma = {}\ntcp = {}\nmax_latency_ratio = 0":    "max_latency_ratio = 0",
	} {
		f, _ := hclsyntax.ParseConfig([]byte(body), "t.hcl", hcl.InitialPos)
		args, _ := hcldec.Decode(f.Body, New().Spec(), nil)
		if diags := New().Validate(args); !strings.Contains(diags.Error(), want) {
			t.Errorf("%q: diags %q, want %q", body, diags.Error(), want)
		}
	}
}
