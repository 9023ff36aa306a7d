package report_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/provadev/prova/internal/evidence/report"
	"github.com/provadev/prova/internal/testkit/reportfixture"
)

// BenchmarkBuildAndRender100 builds and renders every format for a
// 100-node run.
func BenchmarkBuildAndRender100(b *testing.B) {
	spec := reportfixture.Cluster()
	tmpl := spec.Hosts[0]
	spec.Hosts = nil
	for i := range 100 {
		h := tmpl
		h.Name = fmt.Sprintf("nsd%03d", i+1)
		spec.Hosts = append(spec.Hosts, h)
	}
	rec := load(b, reportfixture.Write(b, b.TempDir(), spec))
	b.ResetTimer()
	for b.Loop() {
		r := report.Build(rec, report.Options{Now: now, Baseline: rec})
		for _, f := range []report.Format{report.Markdown, report.HTML, report.JUnit, report.JSON} {
			if err := r.Write(io.Discard, f); err != nil {
				b.Fatal(err)
			}
		}
	}
}
