package report

import (
	"bytes"
	"encoding/json"
	"io"
	"time"

	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
)

// jsonReport is the prova-report/1 document; docs/report.md describes
// every field. Its "run" and "steps" fields decode as record.Meta and
// []record.Step, which makes the file a baseline.
type jsonReport struct {
	Schema     string               `json:"schema"`
	Verdict    string               `json:"verdict"`
	Incomplete bool                 `json:"incomplete"`
	Reason     string               `json:"incomplete_reason,omitempty"`
	Run        jsonRun              `json:"run"`
	Profiles   []string             `json:"profiles"`
	Summary    Counts               `json:"summary"`
	Versions   []Version            `json:"versions"`
	ThreeLines []Line               `json:"three_lines"`
	Charts     jsonCharts           `json:"charts"`
	Assertions []jsonAssertion      `json:"assertions"`
	StepErrors []StepError          `json:"step_errors"`
	Waivers    *jsonWaivers         `json:"waivers,omitempty"`
	Baseline   *baseline.Comparison `json:"baseline,omitempty"`
	Steps      []record.Step        `json:"steps"`
}

type jsonRun struct {
	RunID         string `json:"run_id"`
	Mode          string `json:"mode"`
	Status        string `json:"status"`
	Runbook       string `json:"runbook"`
	RunbookHash   string `json:"runbook_hash"`
	Inventory     string `json:"inventory"`
	InventoryHash string `json:"inventory_hash"`
	// InventorySources: see record.Meta (omitted without GPFS cluster).
	InventorySources []string       `json:"inventory_sources,omitempty"`
	ProvaVersion     string         `json:"prova_version"`
	Started          time.Time      `json:"started"`
	Finished         time.Time      `json:"finished,omitzero"`
	DurationS        float64        `json:"duration_s"`
	Hosts            []string       `json:"hosts"`
	Baseline         string         `json:"baseline,omitempty"`
	Vars             map[string]any `json:"vars,omitempty"`
}

type jsonCharts struct {
	Latency   []LatencyPoint   `json:"latency"`
	CPU       []CPUPoint       `json:"cpu"`
	Bandwidth []BandwidthPoint `json:"bandwidth"`
	Peers     []PeerPoint      `json:"peers"`
}

type jsonAssertion struct {
	record.Assertion
	Original      string         `json:"original_verdict,omitempty"`
	Waiver        string         `json:"waiver,omitempty"`
	Justification string         `json:"justification,omitempty"`
	Expired       *jsonExpiredBy `json:"waiver_expired,omitempty"`
}

type jsonExpiredBy struct {
	Waiver    string `json:"waiver"`
	ExpiredOn string `json:"expired_on"`
}

type jsonWaivers struct {
	File    string       `json:"file"`
	Waivers []jsonWaiver `json:"waivers"`
}

type jsonWaiver struct {
	Name          string   `json:"name"`
	Assertion     string   `json:"assertion"`
	Hosts         []string `json:"hosts"`
	Justification string   `json:"justification"`
	Expires       string   `json:"expires"`
	Status        string   `json:"status"`
	Applied       int      `json:"applied"`
}

func (r *Report) document() jsonReport {
	m := r.Run.Meta
	d := jsonReport{
		Schema: Schema, Verdict: r.Verdict(), Incomplete: r.Run.Incomplete, Reason: r.Run.IncompleteReason, Profiles: r.Profiles, Summary: r.Counts,
		Run: jsonRun{RunID: m.RunID, Mode: m.Mode, Status: r.Run.Status, Runbook: m.Runbook, RunbookHash: m.RunbookHash,
			Inventory: m.Inventory, InventoryHash: m.InventoryHash, InventorySources: m.InventorySources, ProvaVersion: m.ProvaVersion, Started: m.Started,
			Finished: r.Run.Finished, DurationS: r.Run.DurationS, Hosts: nonNil(r.Hosts), Baseline: m.Baseline, Vars: m.Vars},
		Versions: nonNil(r.Versions), ThreeLines: nonNil(r.Lines),
		Charts:     jsonCharts{Latency: nonNil(r.Latency), CPU: nonNil(r.CPU), Bandwidth: nonNil(r.Bandwidth), Peers: nonNil(r.Peers)},
		Assertions: []jsonAssertion{}, StepErrors: nonNil(r.StepErrors), Baseline: r.Baseline, Steps: []record.Step{},
	}
	applied := map[string]int{}
	for _, o := range r.Assertions {
		a := jsonAssertion{Assertion: o.Assertion}
		if o.Original != o.Verdict {
			a.Original = o.Original
		}
		if o.Waiver != nil {
			a.Waiver, a.Justification = o.Waiver.Name, o.Waiver.Justification
			applied[o.Waiver.Name]++
		}
		if o.Expired != nil {
			a.Expired = &jsonExpiredBy{Waiver: o.Expired.Name, ExpiredOn: o.Expired.ExpiredOn()}
		}
		d.Assertions = append(d.Assertions, a)
	}
	if r.Waivers != nil {
		st := map[string]string{}
		for _, w := range r.Waivers.Expired {
			st[w.Name] = "expired"
		}
		for _, w := range r.Waivers.Unused {
			st[w.Name] = "unused"
		}
		d.Waivers = &jsonWaivers{File: r.WaiverFile, Waivers: []jsonWaiver{}}
		for _, w := range r.waiverList() {
			s := st[w.Name]
			if s == "" {
				s = "applied"
			}
			d.Waivers.Waivers = append(d.Waivers.Waivers, jsonWaiver{Name: w.Name, Assertion: w.Assertion, Hosts: nonNil(w.Hosts),
				Justification: w.Justification, Expires: w.ExpiresText, Status: s, Applied: applied[w.Name]})
		}
	}
	for _, s := range r.Run.Steps {
		s.Plans = nil
		if s.Hosts == nil {
			s.Hosts = map[string]record.HostResult{}
		}
		d.Steps = append(d.Steps, s)
	}
	return d
}

// WriteJSON renders the report as an indented prova-report/1 document.
// Object keys keep a fixed order and maps are sorted, so the file is
// stable enough to commit as a baseline.
func (r *Report) WriteJSON(w io.Writer) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r.document()); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
