package report_test

import (
	"encoding/xml"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The stable ids of docs/report.md, each with the element that carries it.
var htmlIDs = map[string]string{
	"verdict": "p", "summary": "table", "failed": "ul", "three-lines": "table", "versions": "table",
	"baseline": "section", "baseline-cluster": "table", "baseline-hosts": "table", "waivers": "table", "assertions": "table",
	"chart-latency": "svg", "chart-cpu": "svg", "chart-peers": "svg",
}

type element struct {
	name, class string
	attrs       map[string]string
}

// parseHTML reads the report as XML (it is well-formed) and returns its
// elements by id, failing on any markup error.
func parseHTML(t *testing.T, doc []byte) (map[string]element, []element) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(doc)))
	d.Strict = true
	ids := map[string]element{}
	var all []element
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("report HTML is not well-formed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		e := element{name: se.Name.Local, attrs: map[string]string{}}
		for _, a := range se.Attr {
			e.attrs[a.Name.Local] = a.Value
		}
		e.class = e.attrs["class"]
		all = append(all, e)
		if id := e.attrs["id"]; id != "" {
			if _, dup := ids[id]; dup {
				t.Errorf("duplicate id %q", id)
			}
			ids[id] = e
		}
	}
	return ids, all
}

func TestHTMLStructure(t *testing.T) {
	doc := render(t, full(t), "html")
	ids, all := parseHTML(t, doc)
	for id, tag := range htmlIDs {
		e, ok := ids[id]
		if !ok {
			t.Errorf("no element with id %q", id)
			continue
		}
		if e.name != tag {
			t.Errorf("#%s is a <%s>, want <%s>", id, e.name, tag)
		}
		if tag == "svg" && !strings.Contains(" "+e.class+" ", " "+id+" ") {
			t.Errorf("svg#%s lacks class %s: %q", id, id, e.class)
		}
	}
	// Self-contained: no script, no external reference.
	for _, e := range all {
		if e.name == "script" || e.name == "link" || e.name == "img" || e.name == "iframe" {
			t.Errorf("element <%s> in a self-contained report", e.name)
		}
		for k, v := range e.attrs {
			if k == "src" || strings.HasPrefix(v, "http:") || strings.HasPrefix(v, "https:") || strings.HasPrefix(k, "on") {
				if k == "xmlns" {
					continue
				}
				t.Errorf("<%s %s=%q> reaches outside the file", e.name, k, v)
			}
		}
	}
	// One bar per node and transport in the latency chart (4 measured
	// nodes x 2), and the short-of-peers bar for gpfs04.
	s := string(doc)
	latency := s[strings.Index(s, `id="chart-latency"`):]
	latency = latency[:strings.Index(latency, "</svg>")]
	if n := strings.Count(latency, " RDMA: "); n != 4 {
		t.Errorf("latency chart: %d RDMA bars, want 4", n)
	}
	if !strings.Contains(s, "<title>gpfs04: 2 of 3 peers</title>") || strings.Count(s, `class="bar missing-few"`) != 2 || !strings.Contains(s, "<title>gpfs04: 1 peer(s) missing</title>") {
		t.Error("peer chart does not mark gpfs04 short of peers")
	}
	for _, want := range []string{"<title>gpfs02 RDMA: 2 µs</title>", "<title>gpfs02 TCP: 6.4 µs</title>",
		"<title>gpfs03 TCP: 8.3%</title>", "<title>gpfs01 TCP: 3.9</title>"} {
		if !strings.Contains(s, want) {
			t.Errorf("charts lack %s", want)
		}
	}
}

func TestHTMLWithoutData(t *testing.T) {
	// A record with no comparison, bench or peer data: no empty charts.
	r := plainNoBench(t)
	ids, _ := parseHTML(t, render(t, r, "html"))
	for _, id := range []string{"three-lines", "chart-latency", "chart-cpu", "chart-peers", "baseline", "waivers"} {
		if _, ok := ids[id]; ok {
			t.Errorf("#%s rendered without data", id)
		}
	}
	for _, id := range []string{"summary", "assertions"} {
		if _, ok := ids[id]; !ok {
			t.Errorf("#%s missing", id)
		}
	}
}

// TestHTMLInChromium renders the report in headless Chromium and checks
// the DOM it built holds every table and chart.
func TestHTMLInChromium(t *testing.T) {
	bin := tool(t, "chromium", "chromium")
	dir := t.TempDir()
	f := filepath.Join(dir, "report.html")
	if err := os.WriteFile(f, render(t, full(t), "html"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(t.Context(), bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"),
		"--dump-dom", "file://"+f)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := string(out)
	for id, tag := range htmlIDs {
		if !strings.Contains(dom, "<"+tag) || !strings.Contains(dom, `id="`+id+`"`) {
			t.Errorf("rendered DOM lacks <%s id=%q>", tag, id)
		}
	}
	for _, class := range []string{`class="chart chart-latency"`, `class="chart chart-cpu"`, `class="chart chart-peers"`} {
		if !strings.Contains(dom, class) {
			t.Errorf("rendered DOM lacks %s", class)
		}
	}
	if strings.Contains(dom, "parsererror") {
		t.Error("chromium reported a parse error")
	}
}
