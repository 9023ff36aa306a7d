package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/provadev/prova/internal/evidence/baseline"
)

// Ant JUnit XML, as CI servers read it (testdata/junit.xsd).
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	ID         int             `xml:"id,attr"`
	Package    string          `xml:"package,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitSkipped `xml:"skipped"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// WriteJUnit renders the report as Ant JUnit XML: one test suite for the
// run (one test case per assertion and host, plus one per step that failed
// on a host without an assertion), and one for the baseline comparison
// when there is one.
func (r *Report) WriteJUnit(w io.Writer) error {
	doc := junitSuites{Name: "prova " + r.Run.Meta.Runbook, Suites: []junitSuite{r.runSuite()}}
	if r.Baseline != nil {
		doc.Suites = append(doc.Suites, baselineSuite(r.Baseline, len(doc.Suites)))
	}
	for _, s := range doc.Suites {
		doc.Tests += s.Tests
		doc.Failures += s.Failures
		doc.Errors += s.Errors
		doc.Skipped += s.Skipped
	}
	doc.Time = secs(r.Run.DurationS)
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("junit: %w", err)
	}
	_, err = fmt.Fprintf(w, "%s%s\n", xml.Header, b)
	return err
}

func (r *Report) runSuite() junitSuite {
	m := r.Run.Meta
	s := junitSuite{Name: orDash(m.Runbook), Package: "prova", Time: secs(r.Run.DurationS)}
	if !m.Started.IsZero() {
		s.Timestamp = m.Started.UTC().Format("2006-01-02T15:04:05")
	}
	prop := func(k, v string) { s.Properties = append(s.Properties, junitProperty{Name: k, Value: v}) }
	prop("run_id", m.RunID)
	prop("status", r.Run.Status)
	prop("runbook", m.Runbook)
	prop("runbook_hash", m.RunbookHash)
	prop("inventory", m.Inventory)
	prop("inventory_hash", m.InventoryHash)
	prop("prova_version", m.ProvaVersion)
	prop("profile", strings.Join(r.Profiles, ", "))
	for _, v := range r.Versions {
		prop("version."+v.Tool, v.Value+" on "+strings.Join(v.Hosts, ", "))
	}
	for _, o := range r.Assertions {
		c := junitCase{Name: o.Name + " on " + o.Host, Classname: o.Step, Time: secs(r.duration(o.Step, o.Host))}
		detail := fmt.Sprintf("measured %s, threshold %s", orDash(o.Measured), orDash(o.Threshold))
		switch o.Verdict {
		case "pass":
		case "warn":
			c.SystemOut = "warn: " + o.Message + " (" + detail + ")"
		case "info":
			c.SystemOut = "info: " + o.Message + " (" + detail + ")"
		case "skipped":
			c.Skipped = &junitSkipped{Message: "skipped: " + orDash(o.Message)}
			s.Skipped++
		case "waived":
			c.Skipped = &junitSkipped{Message: fmt.Sprintf("waived by %s: %s (expires %s)", o.Waiver.Name, o.Waiver.Justification, o.Waiver.ExpiresText)}
			s.Skipped++
		case "fail":
			if o.Expired != nil {
				detail += fmt.Sprintf("\nwaiver %s expired on %s", o.Expired.Name, o.Expired.ExpiredOn())
			}
			c.Failure = &junitProblem{Message: orDash(o.Message), Type: "assertion", Text: detail}
			s.Failures++
		default:
			c.Error = &junitProblem{Message: orDash(o.Message), Type: o.Verdict, Text: detail}
			s.Errors++
		}
		s.Cases = append(s.Cases, c)
	}
	if r.Run.Incomplete {
		s.Cases = append(s.Cases, junitCase{Name: "run finished", Classname: "prova", Time: secs(r.Run.DurationS),
			Error: &junitProblem{Message: "INCOMPLETE: " + r.Run.IncompleteReason, Type: "incomplete",
				Text: "the record holds what happened up to the last event written; steps not reached are not in it"}})
		s.Errors++
	}
	for _, e := range r.StepErrors {
		s.Cases = append(s.Cases, junitCase{Name: e.Step + " on " + e.Host, Classname: e.Step, Time: secs(r.duration(e.Step, e.Host)),
			Error: &junitProblem{Message: orDash(e.Message), Type: string(e.Status)}})
		s.Errors++
	}
	s.Tests = len(s.Cases)
	if r.Waivers != nil {
		var notes []string
		for _, w := range r.Waivers.Expired {
			notes = append(notes, fmt.Sprintf("waiver %s expired on %s", w.Name, w.ExpiredOn()))
		}
		for _, w := range r.Waivers.Unused {
			notes = append(notes, fmt.Sprintf("waiver %s is unused: it matched no failed assertion", w.Name))
		}
		s.SystemOut = strings.Join(notes, "\n")
	}
	return s
}

func baselineSuite(c *baseline.Comparison, id int) junitSuite {
	s := junitSuite{Name: "baseline " + c.Baseline, ID: id, Package: "prova.baseline", Time: secs(0)}
	s.Properties = []junitProperty{{Name: "baseline", Value: c.Baseline}, {Name: "tolerances", Value: c.Profile}}
	for _, row := range append(append([]baseline.Row(nil), c.Cluster...), c.Hosts...) {
		jc := junitCase{Name: row.Metric + " on " + row.HostLabel(), Classname: "baseline." + row.Metric, Time: secs(0)}
		if row.Verdict == baseline.Fail {
			jc.Failure = &junitProblem{Type: "regression",
				Message: fmt.Sprintf("%s regressed %s, beyond %s", row.Metric, row.FormatChange(), row.FormatTolerance()),
				Text:    fmt.Sprintf("baseline %s, now %s", baseline.FormatValue(row.Baseline), baseline.FormatValue(row.Current))}
			s.Failures++
		}
		s.Cases = append(s.Cases, jc)
	}
	s.Tests = len(s.Cases)
	var notes []string
	if len(c.New) > 0 {
		notes = append(notes, "new hosts: "+strings.Join(c.New, ", "))
	}
	if len(c.Missing) > 0 {
		notes = append(notes, "missing hosts: "+strings.Join(c.Missing, ", "))
	}
	s.SystemOut = strings.Join(notes, "\n")
	return s
}

// duration is a step's duration on a host, in seconds.
func (r *Report) duration(step, host string) float64 {
	for _, s := range r.Run.Steps {
		if s.Step == step {
			return s.Hosts[host].DurationS
		}
	}
	return 0
}

func secs(s float64) string { return fmt.Sprintf("%.3f", s) }
