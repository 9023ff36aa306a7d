package baseline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/testkit/reportfixture"
)

func write(t *testing.T, root string, spec reportfixture.Spec) *record.Record {
	t.Helper()
	rec, err := record.Load(reportfixture.Write(t, root, spec))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// pair returns a baseline (reportfixture.Cluster) and a later run changed by edit.
func pair(t *testing.T, edit func(*reportfixture.Spec)) (cur, base *record.Record) {
	t.Helper()
	root := t.TempDir()
	base = write(t, root, reportfixture.Cluster())
	spec := reportfixture.Cluster()
	spec.RunID = "20261201T021500Z-d4e5f6"
	spec.Started = spec.Started.Add(24 * time.Hour)
	edit(&spec)
	return write(t, root, spec), base
}

func row(t *testing.T, rows []baseline.Row, metric, host string) baseline.Row {
	t.Helper()
	for _, r := range rows {
		if r.Metric == metric && r.Host == host {
			return r
		}
	}
	t.Fatalf("no row for %s on %q", metric, host)
	return baseline.Row{}
}

func TestUnchangedRunPasses(t *testing.T) {
	cur, base := pair(t, func(*reportfixture.Spec) {})
	c := baseline.Compare(cur, base, baseline.Default())
	if c.Failed != 0 {
		var b strings.Builder
		_ = c.WriteText(&b, false)
		t.Errorf("identical runs: %d failures\n%s", c.Failed, b.String())
	}
	if len(c.Hosts) == 0 || len(c.Cluster) == 0 {
		t.Fatal("no comparisons")
	}
	// Every kind of measurement is compared.
	for _, m := range []string{"bench.bench_rdma.lat_avg_us", "compare.rdma_vs_tcp/latency: RDMA/TCP ratio", "compare.rdma_vs_tcp/cpu: %soft drop RDMA vs TCP",
		"compare.rdma_vs_tcp.soft_rdma_pct", "compare.rdma_vs_tcp.soft_drop_pct", "compare.rdma_vs_tcp.bw_share_rdma", "verbs_conn.conn.rdma_peers", "assert.rdma_peers/peers"} {
		r := row(t, c.Cluster, m, "")
		if r.Change != 0 || r.Verdict != baseline.Pass {
			t.Errorf("%s: %+v", m, r)
		}
	}
	// Versions and bookkeeping are not metrics.
	for _, r := range c.Hosts {
		if strings.Contains(r.Metric, "version") || strings.HasSuffix(r.Metric, ".rc") || strings.HasSuffix(r.Metric, ".profile") {
			t.Errorf("compared %s", r.Metric)
		}
	}
}

func TestRegressionFailsImprovementPasses(t *testing.T) {
	cur, base := pair(t, func(s *reportfixture.Spec) {
		s.Hosts[1].LatRDMA = 2.5   // gpfs02: 2.0 -> 2.5, +25% > +20%
		s.Hosts[2].LatRDMA = 1.05  // gpfs03: much better
		s.Hosts[0].ShareRDMA = 0.8 // gpfs01: 0.94 -> 0.8, -14.9% < -10%
		s.Hosts[3].ShareRDMA = 0.9 // gpfs04: -4.3%, within tolerance
	})
	c := baseline.Compare(cur, base, baseline.Default())
	r := row(t, c.Hosts, "bench.bench_rdma.lat_avg_us", "gpfs02")
	if r.Verdict != baseline.Fail || r.Kind != "latency" || r.Better != baseline.Lower || r.ChangePct == nil || *r.ChangePct != 25 {
		t.Errorf("latency regression: %+v", r)
	}
	if got := r.FormatChange(); got != "+0.5 (+25%)" {
		t.Errorf("FormatChange = %q", got)
	}
	if r := row(t, c.Hosts, "bench.bench_rdma.lat_avg_us", "gpfs03"); r.Verdict != baseline.Pass || r.Change >= 0 {
		t.Errorf("latency improvement: %+v", r)
	}
	if r := row(t, c.Hosts, "compare.rdma_vs_tcp.bw_share_rdma", "gpfs01"); r.Verdict != baseline.Fail || r.Better != baseline.Higher {
		t.Errorf("bandwidth regression: %+v", r)
	}
	if r := row(t, c.Hosts, "compare.rdma_vs_tcp.bw_share_rdma", "gpfs04"); r.Verdict != baseline.Pass {
		t.Errorf("bandwidth within tolerance: %+v", r)
	}
	// Cluster medians: one worse node and one better one leave 2.05.
	if r := row(t, c.Cluster, "bench.bench_rdma.lat_avg_us", ""); r.Verdict != baseline.Pass || r.Baseline != 2.05 || r.Current != 2.05 {
		t.Errorf("cluster latency: %+v", r)
	}
	if c.Failed < 2 {
		t.Errorf("Failed = %d", c.Failed)
	}
	// A looser profile lets the latency through.
	loose, err := baseline.Default().ParseOverride("latency=30%")
	if err != nil {
		t.Fatal(err)
	}
	if r := row(t, baseline.Compare(cur, base, loose).Hosts, "bench.bench_rdma.lat_avg_us", "gpfs02"); r.Verdict != baseline.Pass || r.TolerancePct != 30 {
		t.Errorf("with latency=30%%: %+v", r)
	}
	if loose.Name != "prova-default/1+overrides" {
		t.Errorf("profile name %q", loose.Name)
	}
}

func TestNewAndMissingNodes(t *testing.T) {
	cur, base := pair(t, func(s *reportfixture.Spec) {
		s.Hosts = s.Hosts[1:] // gpfs01 gone
		n := reportfixture.Cluster().Hosts[2]
		n.Name, n.LatRDMA = "gpfs05", 2.6 // baseline cluster median 2.05: +26.8%
		n.Peers = []string{"gpfs02", "gpfs03", "gpfs04"}
		s.Hosts = append(s.Hosts, n)
	})
	c := baseline.Compare(cur, base, baseline.Default())
	if !cmp.Equal(c.New, []string{"gpfs05"}) || !cmp.Equal(c.Missing, []string{"gpfs01"}) {
		t.Errorf("new %v, missing %v", c.New, c.Missing)
	}
	r := row(t, c.Hosts, "bench.bench_rdma.lat_avg_us", "gpfs05")
	if !r.New || r.Baseline != 2.05 || r.Verdict != baseline.Fail || r.HostLabel() != "gpfs05 (new)" {
		t.Errorf("new node judged against the cluster: %+v", r)
	}
	if r := row(t, c.Hosts, "compare.rdma_vs_tcp.soft_rdma_pct", "gpfs05"); !r.New || r.Verdict != baseline.Pass {
		t.Errorf("new node cpu: %+v", r)
	}
	for _, r := range c.Hosts {
		if r.Host == "gpfs01" {
			t.Errorf("row for the missing node: %+v", r)
		}
	}
	var b strings.Builder
	if err := c.WriteMarkdown(&b, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"new hosts: gpfs05", "missing hosts: gpfs01", "| gpfs05 (new) | bench.bench_rdma.lat_avg_us | 2.05 | 2.6 |", "**FAIL**"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, b.String())
		}
	}
	if got := baseline.OnlyNew([]string{"gpfs02", "gpfs05", "gpfs06", "gpfs01"}, base); !cmp.Equal(got, []string{"gpfs05", "gpfs06"}) {
		t.Errorf("OnlyNew = %v", got)
	}
}

func TestJudgeEdges(t *testing.T) {
	// Peer counts may not drop at all; a metric with baseline 0 has no %.
	cur, base := pair(t, func(s *reportfixture.Spec) { s.Hosts[0].Peers = s.Hosts[0].Peers[:2] })
	c := baseline.Compare(cur, base, baseline.Default())
	if r := row(t, c.Hosts, "verbs_conn.conn.rdma_peers", "gpfs01"); r.Verdict != baseline.Fail || r.Kind != "peers" {
		t.Errorf("peer drop: %+v", r)
	}
	if r := row(t, c.Hosts, "assert.rdma_peers/peers", "gpfs01"); r.Verdict != baseline.Fail {
		t.Errorf("peer check drop: %+v", r)
	}

	// The whole cluster 30% slower: the cluster row fails too.
	cur, base = pair(t, func(s *reportfixture.Spec) {
		for i := range s.Hosts {
			s.Hosts[i].LatTCP *= 1.3
		}
	})
	c = baseline.Compare(cur, base, baseline.Default())
	if r := row(t, c.Cluster, "bench.bench_tcp.lat_avg_us", ""); r.Verdict != baseline.Fail || r.Host != "" || r.HostLabel() != "(cluster)" {
		t.Errorf("cluster regression: %+v", r)
	}
	var b strings.Builder
	if err := c.WriteText(&b, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "(cluster)") || !strings.Contains(b.String(), "bench.bench_tcp.lat_avg_us") || strings.Contains(b.String(), "bench_rdma") {
		t.Errorf("WriteText shows failed rows only:\n%s", b.String())
	}
}

func TestParseNumber(t *testing.T) {
	for in, want := range map[string]float64{"3.1": 3.1, " 3.1 us": 3.1, "42%": 42, "-2": -2, "1e3": 1000, "12.5GiB/s": 12.5, ".5": 0.5,
		"0.31 (1.9 µs / 6.2 µs)": 0.31, "85 % (%soft 1.10 vs 8.30), busy cores 0.6 vs 3.9": 85} {
		if got, ok := baseline.ParseNumber(in); !ok || got != want {
			t.Errorf("ParseNumber(%q) = %v, %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "true", "2 of 4 peers", "n/a", "3.1.2", "RDMA 12000 MiB/s (11.2 Gb/s)", "(0.3)"} {
		if v, ok := baseline.ParseNumber(in); ok {
			t.Errorf("ParseNumber(%q) = %v", in, v)
		}
	}
}

func TestTolerances(t *testing.T) {
	d := baseline.Default()
	for name, kind := range map[string]string{"lat_avg_us": "latency", "latency": "latency", "soft_pct_tcp": "cpu",
		"busy_cores_rdma": "cpu", "bw_share_rdma": "bandwidth", "read_iops": "iops", "rdma_peers": "peers", "missing": "errors",
		"soft_drop_pct": "cpu_saving", "cpu: %soft drop RDMA vs TCP": "cpu_saving", "latency: RDMA/TCP ratio": "latency"} {
		if r, ok := d.Classify(name); !ok || r.Kind != kind {
			t.Errorf("Classify(%s) = %v, %v; want %s", name, r.Kind, ok, kind)
		}
	}
	if _, ok := d.Classify("pagepool"); ok {
		t.Error("pagepool classified")
	}
	for _, bad := range []string{"latency", "latency=x", "nosuch=10", "cpu=-"} {
		if _, err := d.ParseOverride(bad); err == nil {
			t.Errorf("ParseOverride(%q) accepted", bad)
		}
	}
}

func TestLoadAndResolve(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".prova", "runs")
	dir := reportfixture.Write(t, root, reportfixture.Cluster())
	for _, p := range []string{dir, filepath.Join(dir, "run.json")} {
		rec, err := baseline.Load(p)
		if err != nil || rec.Meta.RunID != "20261130T021500Z-a1b2c3" {
			t.Errorf("Load(%s) = %v, %v", p, rec, err)
		}
	}
	// A run.json copied under another name (e.g. committed to git).
	b, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(t.TempDir(), "acceptance-2026-11.json")
	if err := os.WriteFile(copied, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if rec, err := baseline.Load(copied); err != nil || rec.Meta.RunID != "20261130T021500Z-a1b2c3" || len(rec.Steps) == 0 {
		t.Errorf("Load(copied run.json) = %v, %v", rec, err)
	}
	if got, err := baseline.Resolve("latest", root); err != nil || got != dir {
		t.Errorf("Resolve(latest) = %s, %v", got, err)
	}
	if got, _ := baseline.Resolve("20261130T021500Z-a1b2c3", root); got != dir {
		t.Errorf("Resolve(run ID) = %s", got)
	}
	if got, _ := baseline.Resolve("some/dir", root); got != "some/dir" {
		t.Errorf("Resolve(path) = %s", got)
	}
	bad := filepath.Join(t.TempDir(), "x.json")
	for content, want := range map[string]string{
		`{"schema": "prova-report/9"}`: "report schema",
		`{"name": 1}`:                  "neither a run record",
		`[`:                            "not JSON",
		`{"version": 7}`:               "format version 7",
	} {
		if err := os.WriteFile(bad, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := baseline.Load(bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load(%s) = %v, want %q", content, err, want)
		}
	}
	if _, err := baseline.Load(filepath.Join(root, "nothing")); err == nil {
		t.Error("Load of a missing path succeeded")
	}
}
