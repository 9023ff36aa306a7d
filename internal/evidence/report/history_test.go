package report_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/internal/evidence/report"
	"github.com/provadev/prova/internal/testkit/reportfixture"
)

func TestHistory(t *testing.T) {
	root := t.TempDir()
	for i, lat := range []float64{1.9, 2.4, 3.1} {
		spec := reportfixture.Cluster()
		spec.RunID = []string{"20261101T021500Z-aaaaa1", "20261115T021500Z-aaaaa2", "20261129T021500Z-aaaaa3"}[i]
		spec.Started = time.Date(2026, 11, []int{1, 15, 29}[i], 2, 15, 0, 0, time.UTC)
		for h := range spec.Hosts {
			spec.Hosts[h].LatRDMA = lat
		}
		reportfixture.Write(t, root, spec)
	}
	// A killed run among them.
	killed := killedRecord(t)
	if err := os.CopyFS(filepath.Join(root, filepath.Base(killed)), os.DirFS(killed)); err != nil {
		t.Fatal(err)
	}
	rows, err := report.History(root, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	var ids, verdicts []string
	for _, r := range rows {
		ids, verdicts = append(ids, r.RunID), append(verdicts, r.Verdict)
	}
	if strings.Join(ids, " ") != "20261101T021500Z-aaaaa1 20261115T021500Z-aaaaa2 20261129T021500Z-aaaaa3 20261130T021500Z-dead00" {
		t.Errorf("order %v", ids)
	}
	if verdicts[3] != "incomplete" {
		t.Errorf("verdicts %v", verdicts)
	}
	if r := rows[2]; r.LatRDMAUs == nil || *r.LatRDMAUs != 3.1 || r.PeersExpected == 0 || r.PeersConnected >= r.PeersExpected {
		t.Errorf("row %+v", r)
	}
	// --since keeps the later runs.
	later, err := report.History(root, time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC))
	if err != nil || len(later) != 3 {
		t.Errorf("since: %d rows, %v", len(later), err)
	}

	var md, html, js bytes.Buffer
	for f, b := range map[report.Format]*bytes.Buffer{report.Markdown: &md, report.HTML: &html, report.JSON: &js} {
		if err := report.WriteHistory(b, rows, f); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(md.String(), "| 20261129T021500Z-aaaaa3 | 2026-11-29 02:15 |") || !strings.Contains(md.String(), "| 3.1 / ") {
		t.Errorf("markdown:\n%s", md.String())
	}
	lat := svgWith(html.String(), "latency, median over nodes")
	if strings.Count(lat, `<circle class="dot`) != 6 || !strings.Contains(lat, "<polyline") {
		t.Errorf("trend chart:\n%s", lat)
	}
	var doc struct {
		Schema string              `json:"schema"`
		Runs   []report.HistoryRow `json:"runs"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc.Schema != "prova-history/1" || len(doc.Runs) != 4 {
		t.Errorf("json: %v %+v", err, doc)
	}
	f := filepath.Join(t.TempDir(), "h.html")
	if err := os.WriteFile(f, html.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(tool(t, "xmllint", "libxml2-utils"), "--noout", f).CombinedOutput(); err != nil {
		t.Errorf("history.html is not well-formed: %v\n%s", err, out)
	}
}
