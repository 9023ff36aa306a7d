package report_test

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/provadev/prova/internal/baseline"
	"github.com/provadev/prova/internal/record"
	"github.com/provadev/prova/internal/report"
	"github.com/provadev/prova/internal/report/fixture"
	"github.com/provadev/prova/internal/waiver"
)

var now = time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)

// fullSpec is the fixture cluster with a latency failure on gpfs03 and an
// unreachable fifth node.
func fullSpec() fixture.Spec {
	s := fixture.Cluster()
	s.Hosts[2].LatencyThreshold = "<= 0.3"
	s.Hosts = append(s.Hosts, fixture.Host{Name: "gpfs05", Unreachable: true})
	s.Baseline = "20261101T021500Z-0b0b0b"
	return s
}

// baselineSpec is the run the full one is compared with: gpfs02 was
// faster then, and gpfs05 was never seen.
func baselineSpec() fixture.Spec {
	s := fixture.Cluster()
	s.RunID = "20261101T021500Z-0b0b0b"
	s.Started = time.Date(2026, 11, 1, 2, 15, 0, 0, time.UTC)
	s.Hosts[1].LatRDMA = 1.6
	return s
}

func load(t *testing.T, dir string) *record.Record {
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
	base := load(t, fixture.Write(t, root, baselineSpec()))
	rec := load(t, fixture.Write(t, root, fullSpec()))
	set, diags := waiver.Load(filepath.Join("testdata", "waivers.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return report.Build(rec, report.Options{Waivers: set, Now: now, Baseline: base, Tolerances: baseline.Default()})
}

// plain builds the report of the fixture cluster alone.
func plain(t *testing.T) *report.Report {
	t.Helper()
	return report.Build(load(t, fixture.Write(t, t.TempDir(), fixture.Cluster())), report.Options{Now: now})
}

func render(t *testing.T, r *report.Report, f report.Format) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := r.Write(&b, f); err != nil {
		t.Fatalf("render %s: %v", f, err)
	}
	return b.Bytes()
}
