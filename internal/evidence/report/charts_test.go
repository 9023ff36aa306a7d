package report_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/evidence/report"
)

// scaleRecord is a 48-node verify where gpfs04 reaches no peer (0/47) and
// every other node misses only gpfs04 (46/47), in verbs_conn's counts;
// gpfs01 also measured
// NVMe-oF 4K read latency (24 vs 93 µs) while the others measured
// ib_write_lat pair latency (about 2 µs).
func scaleRecord(t *testing.T) *record.Record {
	t.Helper()
	var hosts []string
	for i := 1; i <= 48; i++ {
		hosts = append(hosts, fmt.Sprintf("gpfs%02d", i))
	}
	w, err := record.Create(t.TempDir(), record.Meta{RunID: "20261130T021500Z-5ca1e0", Mode: "apply", Runbook: "gpfs-verbs-verify.hcl",
		Started: now, Hosts: hosts}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Observe(event.RunStarted{Mode: "apply", Hosts: hosts, Steps: []string{"verbs_conn.conn", "compare.verbs", "compare.nvmeof_4k"}})
	for _, h := range hosts {
		peers := []any{}
		for _, p := range hosts {
			if p != h && p != "gpfs04" && h != "gpfs04" {
				peers = append(peers, p)
			}
		}
		st := event.OK
		if h == "gpfs04" {
			st = event.Failed
		}
		w.Observe(event.HostFinished{Step: "verbs_conn.conn", Host: h, Status: st, Result: map[string]any{"rdma_count": float64(len(peers)), "expected_count": 47.0}}) // verbs_conn's shape; the fixture of the golden reports keeps the older lists
		if h == "gpfs01" {
			w.Observe(event.HostFinished{Step: "compare.nvmeof_4k", Host: h, Status: event.OK,
				Checks: []event.Check{{Name: "latency: RDMA/TCP ratio", Measured: "0.26", Threshold: "<= 0.50", Verdict: "pass"}},
				Result: map[string]any{"lat_rdma_us": 24.0, "lat_tcp_us": 93.0, "bw_rdma_mib_s": 11000.0, "bw_tcp_mib_s": 10800.0, "bw_share_rdma": 0.92, "bw_share_tcp": 0.91}})
			continue
		}
		w.Observe(event.HostFinished{Step: "compare.verbs", Host: h, Status: event.OK,
			Checks: []event.Check{{Name: "latency: RDMA/TCP ratio", Measured: "0.3", Threshold: "<= 0.50", Verdict: "pass"},
				{Name: "cpu: %soft drop", Measured: "80 %", Threshold: ">= 50 %", Verdict: "pass"}},
			Result: map[string]any{"lat_rdma_us": 2.0, "lat_tcp_us": 6.5, "soft_rdma_pct": 1.5, "soft_tcp_pct": 8.0}})
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	return load(t, w.Dir())
}

func TestChartsAtScale(t *testing.T) {
	r := report.Build(scaleRecord(t), report.Options{Now: now})
	s := string(render(t, r, "html"))
	peers := between(s, `id="chart-peers"`, "</svg>")
	// The culprit comes first, as the one strong red bar, full width.
	rows := regexp.MustCompile(`class="bar (missing|missing-few)" x="\d+" y="\d+" width="(\d+)"[^>]*><title>(\w+):`).FindAllStringSubmatch(peers, -1)
	if len(rows) == 0 || rows[0][3] != "gpfs04" || rows[0][1] != "missing" || rows[0][2] != "260" {
		t.Fatalf("first missing bar: %v", rows[:min(2, len(rows))])
	}
	for _, m := range rows[1:] {
		if m[1] != "missing-few" {
			t.Errorf("%s drawn as %s", m[3], m[1])
		}
	}
	if !strings.Contains(peers, "24 more node(s)") {
		t.Error("peer chart does not say how many nodes it left out")
	}
	// One chart per latency measure.
	verbs := svgWith(s, "latency (µs): compare.verbs")
	nvme := svgWith(s, "latency (µs): compare.nvmeof_4k")
	if !strings.Contains(verbs, "compare.verbs") || strings.Contains(verbs, "gpfs01 RDMA") || !strings.Contains(nvme, "compare.nvmeof_4k") || !strings.Contains(nvme, "gpfs01 RDMA: 24 µs") {
		t.Errorf("latency measures share a chart")
	}
	// Thresholds drawn: RDMA must stay under half of TCP's latency, and
	// %soft under half of TCP's.
	if !strings.Contains(verbs, "<title>gpfs02 threshold: 3.25 µs</title>") || !strings.Contains(nvme, "<title>gpfs01 threshold: 46.5 µs</title>") {
		t.Error("latency thresholds not drawn")
	}
	if cpu := between(s, `id="chart-cpu"`, "</svg>"); !strings.Contains(cpu, "<title>gpfs02 threshold: 4%</title>") {
		t.Error("cpu threshold not drawn")
	}
	if bw := between(s, `id="chart-bandwidth"`, "</svg>"); !strings.Contains(bw, "gpfs01 RDMA: 1.1e+04") && !strings.Contains(bw, "gpfs01 RDMA: 11000") || !strings.Contains(bw, `class="ref"`) {
		t.Errorf("bandwidth chart: %.300s", bw)
	}
}

func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i:]
	if j := strings.Index(s, to); j >= 0 {
		return s[:j]
	}
	return s
}

// svgWith returns the inline SVG whose text contains title.
func svgWith(s, title string) string {
	for _, part := range strings.Split(s, "<svg ")[1:] {
		part = part[:strings.Index(part, "</svg>")]
		if strings.Contains(part, title) {
			return part
		}
	}
	return ""
}
