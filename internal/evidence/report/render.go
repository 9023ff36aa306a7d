package report

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Format is an output format of prova report.
type Format string

// The formats, in the order files are written.
const (
	Markdown Format = "md"
	HTML     Format = "html"
	JUnit    Format = "junit"
	JSON     Format = "json"
	// Prom is the Prometheus text exposition format, for node_exporter's
	// textfile collector.
	Prom Format = "prom"
)

var formats = []Format{Markdown, HTML, JUnit, JSON, Prom}

// ParseFormats reads a comma-separated list ("md,junit"); repeats are
// dropped, order is kept.
func ParseFormats(s string) ([]Format, error) {
	var out []Format
	seen := map[Format]bool{}
	for _, p := range strings.Split(s, ",") {
		f := Format(strings.ToLower(strings.TrimSpace(p)))
		if f == "markdown" {
			f = Markdown
		}
		ok := false
		for _, k := range formats {
			ok = ok || f == k
		}
		if !ok {
			return nil, fmt.Errorf("unknown report format %q (formats: md, html, junit, json, prom)", p)
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out, nil
}

// FileName is the file a format is written to: report.md, report.html,
// report.junit.xml, report.json.
func (f Format) FileName() string {
	if f == JUnit {
		return "report.junit.xml"
	}
	return "report." + string(f)
}

// Write renders r in format f.
func (r *Report) Write(w io.Writer, f Format) error {
	switch f {
	case Markdown:
		return r.WriteMarkdown(w)
	case HTML:
		return r.WriteHTML(w)
	case JUnit:
		return r.WriteJUnit(w)
	case JSON:
		return r.WriteJSON(w)
	case Prom:
		return r.WritePrometheus(w)
	}
	return fmt.Errorf("unknown report format %q", f)
}

// WriteFiles writes one file per format into dir (FileName names them)
// and returns their paths.
func (r *Report) WriteFiles(dir string, fs []Format) ([]string, error) {
	var paths []string
	for _, f := range fs {
		if (f == Markdown || f == HTML) && r.links == nil {
			if err := r.exportEvidence(dir); err != nil {
				return paths, err
			}
		}
		var b strings.Builder
		if err := r.Write(&b, f); err != nil {
			return paths, fmt.Errorf("render %s report: %w", f, err)
		}
		name := f.FileName()
		if f == Prom {
			name = r.promFileName()
		}
		p := filepath.Join(dir, name)
		if err := writeReplace(p, []byte(b.String())); err != nil {
			return paths, fmt.Errorf("write report: %w", err)
		}
		paths = append(paths, p)
	}
	return paths, nil
}

// writeReplace writes p through a temporary file renamed over it, so that
// a reader (node_exporter's textfile collector) never sees half a file.
func writeReplace(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
