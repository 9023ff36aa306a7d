package report_test

import (
	"path/filepath"
	"testing"

	"github.com/provadev/prova/internal/evidence/report"
	"github.com/provadev/prova/internal/testkit/golden"
)

func TestGolden(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(*testing.T) *report.Report
	}{{"full", full}, {"plain", plain}} {
		r := c.build(t)
		for _, f := range []report.Format{report.Markdown, report.JSON} {
			golden.Check(t, filepath.Join("testdata", c.name+"."+f.FileName()+".golden"), render(t, r, f))
		}
	}
}
