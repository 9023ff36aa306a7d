package report_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/evidence/report"
	"github.com/provadev/prova/internal/evidence/waiver"
	"github.com/provadev/prova/internal/testkit/reportfixture"
)

var now = time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)

// fullSpec is the fixture cluster with a latency failure on gpfs03 and an
// unreachable fifth node.
func fullSpec() reportfixture.Spec {
	s := reportfixture.Cluster()
	s.Hosts[2].LatencyThreshold = "<= 0.3"
	s.Hosts = append(s.Hosts, reportfixture.Host{Name: "gpfs05", Unreachable: true})
	s.Baseline = "20261101T021500Z-0b0b0b"
	return s
}

// baselineSpec is the run the full one is compared with: gpfs02 was
// faster then, and gpfs05 was never seen.
func baselineSpec() reportfixture.Spec {
	s := reportfixture.Cluster()
	s.RunID = "20261101T021500Z-0b0b0b"
	s.Started = time.Date(2026, 11, 1, 2, 15, 0, 0, time.UTC)
	s.Hosts[1].LatRDMA = 1.6
	return s
}

func load(t testing.TB, dir string) *record.Record {
	t.Helper()
	rec, err := record.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// full builds the report exercising every section: waivers (applied,
// expired, unused), a baseline, step errors, the three lines and charts.
func full(t *testing.T) *report.Report {
	t.Helper()
	root := filepath.Join(t.TempDir(), ".prova", "runs")
	base := load(t, reportfixture.Write(t, root, baselineSpec()))
	rec := load(t, reportfixture.Write(t, root, fullSpec()))
	set, diags := waiver.Load(filepath.Join("testdata", "waivers.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return report.Build(rec, report.Options{Waivers: set, Now: now, Baseline: base, Tolerances: baseline.Default()})
}

// plain builds the report of the fixture cluster alone.
func plain(t *testing.T) *report.Report {
	t.Helper()
	return report.Build(load(t, reportfixture.Write(t, t.TempDir(), reportfixture.Cluster())), report.Options{Now: now})
}

func render(t *testing.T, r *report.Report, f report.Format) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.Write(&b, f); err != nil {
		t.Fatalf("render %s: %v", f, err)
	}
	return b.Bytes()
}

// plainNoBench records a run with a shell step and one assertion only.
func plainNoBench(t *testing.T) *report.Report {
	t.Helper()
	w, err := record.Create(t.TempDir(), record.Meta{RunID: "20261130T021500Z-c0ffee", Mode: "apply", Runbook: "x.hcl",
		Started: now, Hosts: []string{"n1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Observe(event.HostFinished{Step: "shell.uname", Host: "n1", Status: event.OK, Result: map[string]any{"stdout": "Linux\n", "kernel_version": "6.1"}})
	w.Observe(event.HostFinished{Step: "assert.kernel", Host: "n1", Status: event.OK, Severity: "fail",
		Checks: []event.Check{{Name: "kernel", Measured: "6.1", Threshold: ">= 5.14", Verdict: "pass"}}})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	return report.Build(load(t, w.Dir()), report.Options{Now: now})
}

func benchEvents() []event.Event {
	return []event.Event{
		event.HostFinished{Step: "bench.lat_rdma", Host: "n1", Status: event.OK, Result: map[string]any{"lat_avg_us": 1.8}},
		event.HostFinished{Step: "bench.lat_tcp", Host: "n1", Status: event.OK, Result: map[string]any{"lat_avg_us": 5.9}},
		event.HostFinished{Step: "bench.lat_rdma", Host: "n2", Status: event.OK, Result: map[string]any{"lat_avg_us": 1.7}},
		event.HostFinished{Step: "mpstat.tcp", Host: "n1", Status: event.OK, Result: map[string]any{"soft_pct": 7.9}},
		event.HostFinished{Step: "verbs_conn.check", Host: "n2", Status: event.OK, Result: map[string]any{"rdma_peers": []any{"n1"}, "missing": []any{"n3"}}},
	}
}

// An assertion step skipped on a host (when = false) is not a failure;
// one on an unreachable host is.
func TestSkippedAndUnreachableAssertions(t *testing.T) {
	w, err := record.Create(t.TempDir(), record.Meta{RunID: "20261130T021500Z-5c1p00", Mode: "apply", Runbook: "s.hcl", Started: now,
		Hosts: []string{"n1", "n2"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Observe(event.HostFinished{Step: "assert.gds", Host: "n1", Status: event.Skipped, Severity: "fail"})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	r := report.Build(load(t, w.Dir()), report.Options{Now: now})
	if r.Counts.Skipped != 1 || r.Verdict() != "pass" {
		t.Errorf("skipped assertion: counts %+v, verdict %s", r.Counts, r.Verdict())
	}
	if j := string(render(t, r, "junit")); !strings.Contains(j, `<skipped message="skipped: -">`) {
		t.Errorf("junit:\n%s", j)
	}

	w, err = record.Create(t.TempDir(), record.Meta{RunID: "20261130T021500Z-5c1p01", Mode: "apply", Runbook: "s.hcl", Started: now,
		Hosts: []string{"n1"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Observe(event.HostFinished{Step: "assert.gds", Host: "n1", Status: event.Unreachable, Severity: "fail", Message: "connection refused"})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	r = report.Build(load(t, w.Dir()), report.Options{Now: now})
	if r.Counts.Other != 1 || r.Verdict() != "fail" {
		t.Errorf("unreachable assertion: counts %+v, verdict %s", r.Counts, r.Verdict())
	}
	if j := string(render(t, r, "junit")); !strings.Contains(j, `<error message="connection refused" type="unreachable">`) {
		t.Errorf("junit:\n%s", j)
	}
}
