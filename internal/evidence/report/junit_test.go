package report_test

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tool returns the path of an external program, skipping the test when it
// is missing, except under CI=true where CI installs it.
func tool(t *testing.T, name, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s not found (Debian package %s); CI must install it", name, pkg)
		}
		t.Skipf("%s not found (Debian package %s)", name, pkg)
	}
	return p
}

func xmllint(t *testing.T, file string) {
	t.Helper()
	out, err := exec.Command(tool(t, "xmllint", "libxml2-utils"), "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), file).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint rejects %s: %v\n%s", file, err, out)
	}
}

func TestJUnitValidates(t *testing.T) {
	dir := t.TempDir()
	for name, r := range map[string]func(*testing.T) []byte{
		"full":  func(t *testing.T) []byte { return render(t, full(t), "junit") },
		"plain": func(t *testing.T) []byte { return render(t, plain(t), "junit") },
	} {
		f := filepath.Join(dir, name+".xml")
		if err := os.WriteFile(f, r(t), 0o600); err != nil {
			t.Fatal(err)
		}
		xmllint(t, f)
	}
}

// The schema is not a rubber stamp: it rejects what CI servers reject.
func TestJUnitSchemaRejects(t *testing.T) {
	dir := t.TempDir()
	for name, doc := range map[string]string{
		"no-name":         `<testsuites><testsuite tests="1"><testcase name="a" classname="b"/></testsuite></testsuites>`,
		"bad-time":        `<testsuites><testsuite name="s" tests="1" time="soon"><testcase name="a" classname="b"/></testsuite></testsuites>`,
		"skip-and-fail":   `<testsuites><testsuite name="s" tests="1"><testcase name="a" classname="b"><skipped/><failure/></testcase></testsuite></testsuites>`,
		"unknown-child":   `<testsuites><testsuite name="s" tests="1"><testcase name="a" classname="b"><passed/></testcase></testsuite></testsuites>`,
		"zoned-timestamp": `<testsuites><testsuite name="s" tests="0" timestamp="2026-11-30T02:15:00Z"/></testsuites>`,
	} {
		f := filepath.Join(dir, name+".xml")
		if err := os.WriteFile(f, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(tool(t, "xmllint", "libxml2-utils"), "--noout", "--schema", filepath.Join("testdata", "junit.xsd"), f).CombinedOutput()
		if err == nil {
			t.Errorf("xmllint accepted %s:\n%s", name, out)
		}
	}
}

type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Skipped  int `xml:"skipped,attr"`
	Suites   []struct {
		Name       string `xml:"name,attr"`
		Tests      int    `xml:"tests,attr"`
		Properties []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string `xml:"name,attr"`
			Classname string `xml:"classname,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
		SystemOut string `xml:"system-out"`
	} `xml:"testsuite"`
}

func TestJUnitContent(t *testing.T) {
	var doc junitDoc
	if err := xml.Unmarshal(render(t, full(t), "junit"), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 2 {
		t.Fatalf("%d suites, want run and baseline", len(doc.Suites))
	}
	run := doc.Suites[0]
	// 16 assertions (4 hosts x 4 checks) and 1 unreachable step.
	if run.Tests != 17 || len(run.Cases) != 17 {
		t.Errorf("run suite: %d tests, %d cases", run.Tests, len(run.Cases))
	}
	props := map[string]string{} // name -> values, one per line
	for _, p := range run.Properties {
		props[p.Name] = strings.TrimPrefix(props[p.Name]+"\n"+p.Value, "\n")
	}
	for k, v := range map[string]string{"runbook_hash": "sha256:1f2e3d4c", "inventory_hash": "sha256:9a8b7c6d", "prova_version": "v0.3.0",
		"profile": "prova-default/1", "version.elbencho_version": "3.0.19 on gpfs01, gpfs02, gpfs03, gpfs04",
		"version.ofed version": "23.10-0.5.5.0 on gpfs04\n24.10-1.1.4.0 on gpfs01, gpfs02, gpfs03"} {
		if props[k] != v {
			t.Errorf("property %s = %q, want %q", k, props[k], v)
		}
	}
	var failed, skipped, errored []string
	for _, c := range run.Cases {
		switch {
		case c.Failure != nil:
			failed = append(failed, c.Classname+": "+c.Name+": "+c.Failure.Message+" | "+c.Failure.Text)
		case c.Skipped != nil:
			skipped = append(skipped, c.Classname+": "+c.Name+": "+c.Skipped.Message)
		case c.Error != nil:
			errored = append(errored, c.Classname+": "+c.Name+": "+c.Error.Type)
		}
	}
	want := []string{"compare.rdma_vs_tcp: latency: RDMA/TCP ratio on gpfs03: RDMA latency is 0.32 of TCP's, more than allowed | " +
		"measured 0.32 (2.1 µs / 6.6 µs), threshold <= 0.3\nwaiver gpfs03-latency expired on 2026-11-01"}
	if strings.Join(failed, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s", strings.Join(failed, "\n"))
	}
	if len(skipped) != 1 || skipped[0] != "assert.rdma_peers: peers on gpfs04: waived by gpfs04-peers: OFED upgrade scheduled CHG-1234 (expires 2026-12-31)" {
		t.Errorf("skipped: %q", skipped)
	}
	if len(errored) != 1 || errored[0] != "ofed.ofed: ofed.ofed on gpfs05: unreachable" {
		t.Errorf("errors: %q", errored)
	}
	if doc.Tests != run.Tests+doc.Suites[1].Tests || doc.Failures < 1+4 || doc.Skipped != 1 || doc.Errors != 1 {
		t.Errorf("totals: %+v", doc)
	}
	if !strings.Contains(run.SystemOut, "waiver old-cpu is unused") {
		t.Errorf("run system-out: %q", run.SystemOut)
	}
	if b := doc.Suites[1]; !strings.Contains(b.SystemOut, "new hosts: gpfs05") {
		t.Errorf("baseline system-out: %q", b.SystemOut)
	}
}
