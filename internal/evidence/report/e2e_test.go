package report_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/evidence/report"
	"github.com/provadev/prova/internal/evidence/waiver"
	"github.com/provadev/prova/internal/testkit/reportfixture"
)

// TestEndToEnd does what "prova report latest --format md,junit,json,html
// --waivers W --baseline B" does: resolve the runs, load the waivers and
// the baseline, build, and write every file into the run directory.
func TestEndToEnd(t *testing.T) {
	root := filepath.Join(t.TempDir(), ".prova", "runs")
	reportfixture.Write(t, root, baselineSpec())
	reportfixture.Write(t, root, fullSpec())
	dir, err := baseline.Resolve("latest", root)
	if err != nil {
		t.Fatal(err)
	}
	rec := load(t, dir)
	bdir, err := baseline.Resolve(rec.Meta.Baseline, root) // the record names its baseline
	if err != nil {
		t.Fatal(err)
	}
	base, err := baseline.Load(bdir)
	if err != nil {
		t.Fatal(err)
	}
	set, diags := waiver.Load(filepath.Join("testdata", "waivers.hcl"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	fs, err := report.ParseFormats("md,junit,json,html,md")
	if err != nil {
		t.Fatal(err)
	}
	r := report.Build(rec, report.Options{Waivers: set, Now: now, Baseline: base})
	paths, err := r.WriteFiles(dir, fs)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range paths {
		names = append(names, filepath.Base(p))
	}
	if got := strings.Join(names, " "); got != "report.md report.junit.xml report.json report.html" {
		t.Errorf("wrote %s", got)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Every raw output behind a line is linked, as plain text beside
	// the report, with the record's content.
	checkLinks(t, dir, rec, r.Lines, md)
	xmllint(t, filepath.Join(dir, "report.junit.xml"))
	if r.Verdict() != "fail" || r.Baseline == nil || r.Baseline.Baseline != "20261101T021500Z-0b0b0b" {
		t.Errorf("verdict %s, baseline %+v", r.Verdict(), r.Baseline)
	}
}

// A JSON report is a baseline: comparing the run with its own exported
// report finds every metric unchanged.
func TestJSONReportIsABaseline(t *testing.T) {
	root := t.TempDir()
	rec := load(t, reportfixture.Write(t, root, reportfixture.Cluster()))
	f := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(f, render(t, report.Build(rec, report.Options{Now: now}), "json"), 0o600); err != nil {
		t.Fatal(err)
	}
	base, err := baseline.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	if base.Meta.RunID != rec.Meta.RunID || base.Meta.RunbookHash != rec.Meta.RunbookHash || len(base.Steps) != len(rec.Steps) {
		t.Errorf("baseline from JSON: %+v", base.Meta)
	}
	c := baseline.Compare(rec, base, baseline.Default())
	direct := baseline.Compare(rec, rec, baseline.Default())
	if len(c.Hosts) == 0 || len(c.Hosts) != len(direct.Hosts) || len(c.Cluster) != len(direct.Cluster) {
		t.Fatalf("JSON baseline compares %d/%d rows, the record %d/%d", len(c.Hosts), len(c.Cluster), len(direct.Hosts), len(direct.Cluster))
	}
	for _, row := range append(c.Hosts, c.Cluster...) {
		if row.Change != 0 || row.Verdict == baseline.Fail {
			t.Errorf("changed against its own report: %+v", row)
		}
	}
	// A later run with a regression is caught against the JSON file.
	spec := reportfixture.Cluster()
	spec.RunID = "20261201T021500Z-aaaaaa"
	spec.Hosts[0].LatRDMA = 3
	later := load(t, reportfixture.Write(t, root, spec))
	if c := baseline.Compare(later, base, baseline.Default()); c.Failed == 0 {
		t.Error("regression against a JSON baseline not found")
	}
}

func TestParseFormats(t *testing.T) {
	for _, bad := range []string{"", "pdf", "md,,json"} {
		if _, err := report.ParseFormats(bad); err == nil {
			t.Errorf("ParseFormats(%q) accepted", bad)
		}
	}
	fs, err := report.ParseFormats("JSON, markdown")
	if err != nil || len(fs) != 2 || fs[0] != report.JSON || fs[1] != report.Markdown {
		t.Errorf("ParseFormats = %v, %v", fs, err)
	}
}

func TestReportContent(t *testing.T) {
	r := full(t)
	if r.Counts.Waived != 1 || r.Counts.Fail != 1 || r.Counts.StepErrors != 1 || r.Counts.Pass != 14 {
		t.Errorf("counts %+v", r.Counts)
	}
	if len(r.Lines) != 12 {
		t.Errorf("%d three-line rows, want 3 per measured host", len(r.Lines))
	}
	if got := r.Lines[6]; got.Host != "gpfs03" || got.Line != "latency" || got.Verdict != "fail" || got.RDMA != "2.1 µs" || got.TCP != "6.6 µs" {
		t.Errorf("gpfs03 latency line: %+v", got)
	}
	// The raw outputs behind each line are the benchmarks' evidence.
	for _, l := range r.Lines[6:9] {
		var got []string
		for _, p := range l.Raw {
			b, err := r.Run.ReadRaw(p)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.SplitN(string(b), "\n", 2)[0])
		}
		want := map[string]string{"latency": "4096", "cpu": "Average:", "bandwidth": "WRITE"}[l.Line]
		if len(got) != 2 || !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("%s raw outputs: %q, want two mentioning %q", l.Line, got, want)
		}
	}
	if l := r.Lines[8]; l.RDMA != "11206 MiB/s, 94% of line rate" || l.TCP != "10848 MiB/s, 91% of line rate" {
		t.Errorf("bandwidth cells %q | %q", l.RDMA, l.TCP)
	}
	if l := r.Lines[7]; l.RDMA != "%soft 1.3%, 0.6 busy cores" || l.TCP != "%soft 8.3%, 3.9 busy cores" {
		t.Errorf("cpu cells %q | %q", l.RDMA, l.TCP)
	}
	if len(r.Peers) != 4 || r.Peers[3].Connected != 2 || r.Peers[3].Expected != 3 {
		t.Errorf("peers %+v", r.Peers)
	}
	var ofed []string
	for _, v := range r.Versions {
		if v.Tool == "ofed version" {
			ofed = append(ofed, v.Value+"="+strings.Join(v.Hosts, ","))
		}
	}
	if strings.Join(ofed, " ") != "23.10-0.5.5.0=gpfs04 24.10-1.1.4.0=gpfs01,gpfs02,gpfs03" {
		t.Errorf("OFED versions %v", ofed)
	}
}

// Latency and CPU charts fall back to bench steps named after the
// transport when no compare step gave the figures.
func TestChartsFromBenchSteps(t *testing.T) {
	w, err := record.Create(t.TempDir(), record.Meta{RunID: "20261130T021500Z-beef00", Mode: "apply", Runbook: "b.hcl", Started: now,
		Hosts: []string{"n1", "n2"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range benchEvents() {
		w.Observe(e)
	}
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	r := report.Build(load(t, w.Dir()), report.Options{Now: now})
	if len(r.Latency) != 2 || *r.Latency[0].RDMAUs != 1.8 || *r.Latency[0].TCPUs != 5.9 || r.Latency[1].TCPUs != nil {
		t.Errorf("latency points %+v", r.Latency)
	}
	if len(r.CPU) != 1 || *r.CPU[0].SoftPctTCP != 7.9 || r.CPU[0].SoftPctRDMA != nil {
		t.Errorf("cpu points %+v", r.CPU)
	}
	if len(r.Peers) != 1 || r.Peers[0].Connected != 1 || r.Peers[0].Expected != 2 {
		t.Errorf("peers from rdma_peers + missing: %+v", r.Peers)
	}
	if len(r.Lines) != 0 {
		t.Errorf("three lines without a compare step: %+v", r.Lines)
	}
}

// checkLinks checks that every Markdown link target under evidence/ (or a
// version 1 raw/ path) exists relative to dir, and that the lines' raw
// outputs are all linked with the record's content.
func checkLinks(t *testing.T, dir string, rec *record.Record, lines []report.Line, md []byte) {
	t.Helper()
	targets := regexp.MustCompile(`\]\(((?:evidence|raw)/[^)]+)\)`).FindAllSubmatch(md, -1)
	if len(targets) == 0 {
		t.Fatal("report.md links no raw output")
	}
	linked := map[string]string{}
	for _, m := range targets {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(string(m[1]))))
		if err != nil {
			t.Errorf("report.md links %s: %v", m[1], err)
		}
		linked[string(b)] = string(m[1])
	}
	for _, l := range lines {
		for _, p := range l.Raw {
			want, err := rec.ReadRaw(p)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := linked[string(want)]; !ok {
				t.Errorf("%s %s: raw output %s not linked from report.md", l.Host, l.Line, p)
			}
		}
	}
}

// TestOldLayoutRecordRenders: a record written before the content-
// addressed layout (version 1, raw/<step>/<host>.<name>.txt) still loads,
// renders, and its links work from the report directory, whether the
// report goes into the record or elsewhere.
func TestOldLayoutRecordRenders(t *testing.T) {
	src := filepath.Join("testdata", "record-v1", "20261130T021500Z-a1b2c3")
	rec := load(t, src)
	if rec.Version != 1 || !strings.HasPrefix(rec.Steps[0].Hosts["gpfs01"].Raw["stdout"], "raw/ofed.ofed/") {
		t.Fatalf("fixture is not the old layout: version %d", rec.Version)
	}
	r := report.Build(rec, report.Options{Now: now})
	if len(r.Lines) != 12 || r.Verdict() != "fail" {
		t.Errorf("%d lines, verdict %s", len(r.Lines), r.Verdict())
	}
	out := t.TempDir()
	if _, err := r.WriteFiles(out, []report.Format{report.Markdown, report.HTML}); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkLinks(t, out, rec, r.Lines, md)

	// Into a copy of the record itself: the old text files are linked in place.
	cp := filepath.Join(t.TempDir(), "20261130T021500Z-a1b2c3")
	if err := os.CopyFS(cp, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	rec = load(t, cp)
	r = report.Build(rec, report.Options{Now: now})
	if _, err := r.WriteFiles(cp, []report.Format{report.Markdown}); err != nil {
		t.Fatal(err)
	}
	md, err = os.ReadFile(filepath.Join(cp, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(md, []byte("](raw/bench.bench_rdma/gpfs01.ib_write_lat")) {
		t.Errorf("old raw files not linked in place:\n%s", md)
	}
	checkLinks(t, cp, rec, r.Lines, md)
}

// TestVersion3RecordRenders: a record written by the version 3 writer
// (gzip blobs, raw/sha256/<hex>.gz, and a compressed trail) still loads
// and renders, and its links open from the report directory as plain
// text, whether the report goes elsewhere or into the record.
func TestVersion3RecordRenders(t *testing.T) {
	src := filepath.Join("testdata", "record-v3", "20261130T021500Z-a1b2c3")
	rec := load(t, src)
	if p := rec.Steps[0].Hosts["gpfs01"].Raw["stdout"]; rec.Version != 3 || !strings.HasSuffix(p, ".gz") {
		t.Fatalf("fixture is not version 3: version %d, %s", rec.Version, p)
	}
	for _, dir := range []string{t.TempDir(), ""} {
		rec := rec
		if dir == "" { // a copy of the record itself
			dir = filepath.Join(t.TempDir(), "20261130T021500Z-a1b2c3")
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			rec = load(t, dir)
		}
		r := report.Build(rec, report.Options{Now: now})
		if len(r.Lines) == 0 || r.Verdict() != "fail" {
			t.Errorf("%d lines, verdict %s", len(r.Lines), r.Verdict())
		}
		if _, err := r.WriteFiles(dir, []report.Format{report.Markdown, report.HTML}); err != nil {
			t.Fatal(err)
		}
		md, err := os.ReadFile(filepath.Join(dir, "report.md"))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(md, []byte(".gz)")) {
			t.Error("report.md links a compressed blob")
		}
		checkLinks(t, dir, rec, r.Lines, md)
	}

	// It serves as the baseline of a version 4 run of the same cluster.
	base, err := baseline.Load(src)
	if err != nil {
		t.Fatal(err)
	}
	now4 := load(t, reportfixture.Write(t, t.TempDir(), fullSpec()))
	if now4.Version != record.Version {
		t.Fatalf("fixture writer wrote version %d", now4.Version)
	}
	c := baseline.Compare(now4, base, baseline.Default())
	if len(c.Hosts) == 0 {
		t.Fatal("nothing compared against the version 3 baseline")
	}
	for _, row := range append(c.Hosts, c.Cluster...) {
		if row.Change != 0 || row.Verdict == baseline.Fail {
			t.Errorf("changed against the same run kept as version 3: %+v", row)
		}
	}
}
