package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/provadev/prova/internal/evidence/report"
)

// parseProm reads text exposition with the Prometheus library's own parser.
func parseProm(t *testing.T, b []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("exposition does not parse: %v\n%s", err, b)
	}
	return fams
}

// value finds the gauge of name whose labels include want.
func value(t *testing.T, fams map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	t.Helper()
	f, ok := fams[name]
	if !ok {
		return 0, false
	}
	if f.GetType() != dto.MetricType_GAUGE {
		t.Errorf("%s is %v, want a gauge", name, f.GetType())
	}
next:
	for _, m := range f.Metric {
		got := map[string]string{}
		for _, l := range m.Label {
			got[l.GetName()] = l.GetValue()
		}
		for k, v := range want {
			if got[k] != v {
				continue next
			}
		}
		return m.GetGauge().GetValue(), true
	}
	return 0, false
}

func TestPrometheusExposition(t *testing.T) {
	r := full(t)
	var b bytes.Buffer
	if err := r.WritePrometheus(&b); err != nil {
		t.Fatal(err)
	}
	fams := parseProm(t, b.Bytes())
	rb := "gpfs-verbs-rdma"
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"prova_run_verdict", map[string]string{"runbook": rb, "verdict": "fail"}, 1},
		{"prova_run_verdict", map[string]string{"runbook": rb, "verdict": "pass"}, 0},
		{"prova_run_hosts", map[string]string{"runbook": rb}, 5},
		{"prova_check_verdict", map[string]string{"host": "gpfs03", "step": "compare.rdma_vs_tcp", "check": "latency: RDMA/TCP ratio", "verdict": "fail"}, 1},
		{"prova_host_failed_checks", map[string]string{"host": "gpfs03"}, 1},
		{"prova_host_failed_checks", map[string]string{"host": "gpfs01"}, 0},
		{"prova_rdma_peers_connected", map[string]string{"host": "gpfs04"}, 2},
		{"prova_rdma_peers_expected", map[string]string{"host": "gpfs04"}, 3},
		{"prova_latency_microseconds", map[string]string{"host": "gpfs03", "transport": "rdma"}, 2.1},
		{"prova_latency_microseconds", map[string]string{"host": "gpfs03", "transport": "tcp"}, 6.6},
		{"prova_cpu_soft_percent", map[string]string{"host": "gpfs03", "transport": "tcp"}, 8.3},
		{"prova_bandwidth_mib_per_second", map[string]string{"host": "gpfs01", "transport": "rdma"}, 11206},
		{"prova_bandwidth_line_rate_ratio", map[string]string{"host": "gpfs01", "transport": "rdma"}, 0.94},
		{"prova_latency_threshold_microseconds", map[string]string{"host": "gpfs03"}, 0.3 * 6.6},
		{"prova_run_duration_seconds", map[string]string{"runbook": rb}, 95},
	}
	for _, c := range checks {
		got, ok := value(t, fams, c.name, c.labels)
		if !ok || got < c.want-1e-9 || got > c.want+1e-9 {
			t.Errorf("%s%v = %v (found %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	for _, name := range []string{"prova_run_start_timestamp_seconds", "prova_run_finish_timestamp_seconds", "prova_run_age_seconds", "prova_cpu_soft_threshold_percent", "prova_line_check_info"} {
		if _, ok := fams[name]; !ok {
			t.Errorf("%s missing", name)
		}
	}
	// WriteFiles names the file after the runbook, for the textfile collector.
	dir := t.TempDir()
	paths, err := r.WriteFiles(dir, []report.Format{report.Prom})
	if err != nil || len(paths) != 1 || filepath.Base(paths[0]) != "prova_gpfs-verbs-rdma.prom" {
		t.Fatalf("WriteFiles = %v, %v", paths, err)
	}
	if b, err := os.ReadFile(paths[0]); err != nil || len(parseProm(t, b)) == 0 {
		t.Errorf("written file: %v", err)
	}
}

// Label values with quotes, backslashes and line breaks stay parseable;
// an incomplete run says so.
func TestPrometheusEscapingAndIncomplete(t *testing.T) {
	rec := load(t, killedRecord(t))
	rec.Meta.Runbook = "we\"ird\\name\n.hcl"
	r := report.Build(rec, report.Options{Now: now})
	var b bytes.Buffer
	if err := r.WritePrometheus(&b); err != nil {
		t.Fatal(err)
	}
	fams := parseProm(t, b.Bytes())
	if v, ok := value(t, fams, "prova_run_verdict", map[string]string{"verdict": "incomplete", "runbook": "we\"ird\\name\n"}); !ok || v != 1 {
		t.Errorf("incomplete verdict %v %v:\n%s", v, ok, b.String())
	}
	if strings.Count(b.String(), "# TYPE prova_run_verdict gauge") != 1 {
		t.Error("family declared twice")
	}
}
