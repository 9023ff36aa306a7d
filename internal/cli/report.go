package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/evidence/report"
	"github.com/provadev/prova/internal/evidence/waiver"
)

type reportFlags struct {
	format, out, waivers, baseline, recordDir string
	tolerances                                []string
	forceBaseline                             bool
	history                                   bool
	since                                     string
}

func (a *app) reportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report RUN | --history",
		Short: "Render a run record as Markdown, HTML, JUnit XML or JSON",
		Long: `report renders the run record RUN: a run directory, a run ID under
--record-dir, or "latest". Formats (--format, comma-separated):

  md     report.md: summary, failures, the three lines RDMA vs TCP side by
         side, tool versions, per-host assertions (for deployment documents)
  html   report.html: one self-contained file with inline SVG charts
  junit  report.junit.xml: Ant JUnit XML, one test case per assertion and host
  json   report.json: schema prova-report/1, also usable as a baseline file
  prom   prova_<runbook>.prom: Prometheus text exposition for node_exporter's
         textfile collector (written atomically; see docs/operations.md)

Files go into the run directory unless --out names another; --out - prints
a single format on standard output. --waivers applies a waiver file;
--baseline compares with an earlier run (directory, run ID, "latest", or a
JSON report); without it, the baseline named in the record is used when it
can be found. --tolerance KIND=PERCENT overrides the default regression
tolerances (latency=20, cpu=25, bandwidth=10, iops=10, peers=0, errors=0).

--history reads every record under --record-dir (--since 720h or
--since 2026-11-01 keeps the later ones) and prints, per run, the verdict,
the failures, the RDMA peers and the median of each of the three lines:
--format md (default) or json on standard output, html (with one trend
chart per measurement) into history.html under --out (default: the record
directory).

EXIT STATUS
  0  the report was written, whatever the run's verdict
  1  bad arguments, an unreadable record, baseline or waiver file`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.history {
				if len(args) > 0 {
					return fmt.Errorf("--history reads every run under --record-dir; it takes no RUN")
				}
				return a.runHistory(&f)
			}
			if len(args) != 1 {
				return fmt.Errorf("report needs a RUN (a run directory, a run ID or \"latest\"), or --history")
			}
			if f.since != "" {
				return fmt.Errorf("--since goes with --history")
			}
			return a.runReport(args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "md", "formats, comma-separated: md, html, junit, json, prom")
	fl.StringVar(&f.out, "out", "", `directory for the report files (default: the run directory); "-" for standard output`)
	fl.StringVar(&f.waivers, "waivers", "", "HCL waiver file to apply")
	fl.StringVar(&f.baseline, "baseline", "", "baseline run (directory, run ID, latest) or JSON report file")
	fl.StringArrayVar(&f.tolerances, "tolerance", nil, "regression tolerance override KIND=PERCENT (repeatable)")
	fl.StringVar(&f.recordDir, "record-dir", record.DefaultRoot, "where run records are kept")
	fl.BoolVar(&f.forceBaseline, "force-baseline", false, "accept an incomplete run (killed, never finished) as the baseline")
	fl.BoolVar(&f.history, "history", false, "one row per run under --record-dir: verdict, failures, RDMA peers, three-line medians")
	fl.StringVar(&f.since, "since", "", "with --history: runs started after this duration ago (720h) or date (2026-11-01)")
	return cmd
}

func (a *app) runReport(run string, f *reportFlags) error {
	formats, err := report.ParseFormats(f.format)
	if err != nil {
		return err
	}
	if f.out == "-" && len(formats) != 1 {
		return fmt.Errorf("--out - prints one format; got %d (%s)", len(formats), f.format)
	}
	dir, err := baseline.Resolve(run, f.recordDir)
	if err != nil {
		return err
	}
	rec, err := record.Load(dir)
	if err != nil {
		return err
	}
	tol := baseline.Default()
	for _, o := range f.tolerances {
		if tol, err = tol.ParseOverride(o); err != nil {
			return err
		}
	}
	opts := report.Options{Now: time.Now(), Tolerances: tol}
	if f.waivers != "" {
		set, diags := waiver.Load(f.waivers)
		if set != nil {
			a.printDiags(map[string][]byte{f.waivers: set.Source}, diags)
		} else {
			a.printDiags(nil, diags)
		}
		if diags.HasErrors() {
			return errSilent{fmt.Errorf("waiver file %s: %w", f.waivers, diagErr(diags))}
		}
		opts.Waivers = set
	}
	if opts.Baseline, err = a.reportBaseline(rec, f); err != nil {
		return err
	}
	r := report.Build(rec, opts)
	a.waiverWarnings(r)
	if f.out == "-" {
		return r.Write(a.stdout, formats[0])
	}
	out := f.out
	if out == "" {
		out = rec.Dir
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	paths, err := r.WriteFiles(out, formats)
	for _, p := range paths {
		fmt.Fprintf(a.stdout, "wrote %s\n", p)
	}
	return err
}

func (a *app) runHistory(f *reportFlags) error {
	var since time.Time
	if f.since != "" {
		if d, err := time.ParseDuration(f.since); err == nil {
			since = time.Now().Add(-d)
		} else if t, err := time.Parse("2006-01-02", f.since); err == nil {
			since = t
		} else if t, err := time.Parse(time.RFC3339, f.since); err == nil {
			since = t
		} else {
			return fmt.Errorf("--since %q: want a duration (720h) or a date (2026-11-01)", f.since)
		}
	}
	format := report.Format(f.format)
	if format != report.Markdown && format != report.HTML && format != report.JSON {
		return fmt.Errorf("--history --format %s: want md, html or json", f.format)
	}
	rows, err := report.History(f.recordDir, since)
	if err != nil {
		return err
	}
	if format != report.HTML || f.out == "-" {
		return report.WriteHistory(a.stdout, rows, format)
	}
	out := f.out
	if out == "" {
		out = f.recordDir
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	p := filepath.Join(out, "history.html")
	fh, err := os.Create(p)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if err := report.WriteHistory(fh, rows, format); err != nil {
		fh.Close()
		return err
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(a.stdout, "wrote %s\n", p)
	return nil
}

// reportBaseline loads the baseline named by --baseline (an error when it
// cannot be read) or by the record (a warning when it cannot).
func (a *app) reportBaseline(rec *record.Record, f *reportFlags) (*record.Record, error) {
	name, explicit := f.baseline, true
	if name == "" {
		name, explicit = rec.Meta.Baseline, false
	}
	if name == "" {
		return nil, nil
	}
	root := f.recordDir
	if sib := filepath.Join(filepath.Dir(rec.Dir), name); record.IsRunID(name) && isDir(sib) {
		root = filepath.Dir(rec.Dir) // a run ID next to the reported run
	}
	path, err := baseline.Resolve(name, root)
	var base *record.Record
	if err == nil {
		if f.forceBaseline {
			base, err = baseline.LoadForce(path)
		} else {
			base, err = baseline.Load(path)
		}
	}
	if err != nil {
		if explicit {
			return nil, err
		}
		fmt.Fprintf(a.stderr, "Warning: the record's baseline %s cannot be read, reporting without it: %v\n", name, err)
		return nil, nil
	}
	return base, nil
}

func (a *app) waiverWarnings(r *report.Report) {
	if r.Waivers == nil {
		return
	}
	for _, w := range r.Waivers.Expired {
		fmt.Fprintf(a.stderr, "Warning: waiver %q expired on %s; the failures it named stand\n", w.Name, w.ExpiredOn())
	}
	for _, w := range r.Waivers.Unused {
		fmt.Fprintf(a.stderr, "Warning: waiver %q matched no failed assertion\n", w.Name)
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// diagErr summarises error diagnostics for an error value.
func diagErr(diags hcl.Diagnostics) error {
	return fmt.Errorf("%d error(s), first: %s", len(diags.Errs()), diags.Errs()[0])
}
