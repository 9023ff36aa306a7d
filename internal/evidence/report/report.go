package report

import (
	"sort"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/evidence/waiver"
)

// Schema is the JSON report's schema name.
const Schema = baseline.ReportSchema

// DefaultProfile is the threshold profile named when no result names one.
const DefaultProfile = "prova-default/1"

// Options adds what the record alone does not hold.
type Options struct {
	// Waivers, applied at Now, turn matched failures into "waived".
	Waivers *waiver.Set
	Now     time.Time
	// Baseline, when set, is compared with the record using Tolerances
	// (the default profile when its Name is empty).
	Baseline   *record.Record
	Tolerances baseline.Tolerances
}

// Report is everything the renderers show, built once from a record.
type Report struct {
	Run        *record.Record
	Hosts      []string
	Profiles   []string
	Counts     Counts
	Assertions []waiver.Outcome
	StepErrors []StepError
	Lines      []Line
	Latency    []LatencyPoint
	CPU        []CPUPoint
	Bandwidth  []BandwidthPoint
	Peers      []PeerPoint
	Versions   []Version
	Waivers    *waiver.Result
	WaiverFile string
	waiverSet  *waiver.Set
	Baseline   *baseline.Comparison
	now        time.Time
	// links maps a record raw path to the report's link (see exportEvidence).
	links map[string]string
}

// Counts tallies assertion verdicts after waivers.
type Counts struct {
	Assertions int `json:"assertions"`
	Pass       int `json:"pass"`
	Fail       int `json:"fail"`
	Warn       int `json:"warn"`
	Waived     int `json:"waived"`
	Skipped    int `json:"skipped"`
	// Info counts findings recorded by steps that did not fail (see
	// docs/report.md).
	Info       int `json:"info"`
	Other      int `json:"other"`
	StepErrors int `json:"step_errors"`
}

// StepError is a step that failed on a host without an assertion to say
// so: a module error or an unreachable host.
type StepError struct {
	Step    string       `json:"step"`
	Host    string       `json:"host"`
	Status  event.Status `json:"status"`
	Message string       `json:"message,omitempty"`
}

// Build gathers the report of rec.
func Build(rec *record.Record, opts Options) *Report {
	r := &Report{Run: rec, Hosts: hostsOf(rec), Profiles: profilesOf(rec), now: opts.Now}
	res := opts.Waivers.Apply(rec.Assertions, opts.Now)
	r.Assertions = res.Outcomes
	if opts.Waivers != nil {
		r.Waivers, r.WaiverFile, r.waiverSet = &res, opts.Waivers.File, opts.Waivers
	}
	for _, o := range r.Assertions {
		r.Counts.Assertions++
		switch o.Verdict {
		case "pass":
			r.Counts.Pass++
		case "fail":
			r.Counts.Fail++
		case "warn":
			r.Counts.Warn++
		case "waived":
			r.Counts.Waived++
		case "skipped":
			r.Counts.Skipped++
		case "info":
			r.Counts.Info++
		default:
			r.Counts.Other++
		}
	}
	r.StepErrors = stepErrors(rec, r.Hosts)
	r.Counts.StepErrors = len(r.StepErrors)
	r.Lines = r.threeLines()
	r.Latency, r.CPU, r.Peers = latencyPoints(rec, r.Hosts), cpuPoints(rec, r.Hosts), peerPoints(rec, r.Hosts)
	r.Bandwidth = bandwidthPoints(rec, r.Hosts)
	r.Versions = versionsOf(rec, r.Hosts)
	if opts.Baseline != nil {
		t := opts.Tolerances
		if t.Name == "" {
			t = baseline.Default()
		}
		r.Baseline = baseline.Compare(rec, opts.Baseline, t)
	}
	return r
}

// Failed lists the assertions that failed after waivers.
func (r *Report) Failed() []waiver.Outcome {
	var out []waiver.Outcome
	for _, o := range r.Assertions {
		if o.Verdict == "fail" {
			out = append(out, o)
		}
	}
	return out
}

// Verdict is the report's overall verdict: "incomplete" when the run never
// finished its record (killed, or still running), "fail" when an
// assertion or a step failed or the baseline comparison found a
// regression, else "pass".
func (r *Report) Verdict() string {
	if r.Run.Incomplete {
		return "incomplete"
	}
	if r.Counts.Fail > 0 || r.Counts.StepErrors > 0 || r.Counts.Other > 0 || (r.Baseline != nil && r.Baseline.Failed > 0) {
		return "fail"
	}
	return "pass"
}

func stepErrors(rec *record.Record, hosts []string) []StepError {
	var out []StepError
	for _, s := range rec.Steps {
		for _, h := range orderHosts(keys(s.Hosts), hosts) {
			hr := s.Hosts[h]
			if len(hr.Checks) > 0 || hr.Severity != "" {
				continue // an assertion: in Assertions
			}
			switch hr.Status {
			case event.Failed, event.Unreachable, record.Unfinished:
				out = append(out, StepError{Step: s.Step, Host: h, Status: hr.Status, Message: hr.Message})
			}
		}
	}
	return out
}

func profilesOf(rec *record.Record) []string {
	seen := map[string]bool{}
	for _, s := range rec.Steps {
		for _, hr := range s.Hosts {
			if p, ok := hr.Result["profile"].(string); ok && p != "" {
				seen[p] = true
			}
		}
	}
	if len(seen) == 0 {
		return []string{DefaultProfile}
	}
	return sortedSet(seen)
}

// hostsOf lists the record's hosts: meta's, in order, then any others
// seen in steps, by name.
func hostsOf(rec *record.Record) []string {
	all := map[string]bool{}
	for _, h := range rec.Meta.Hosts {
		all[h] = true
	}
	for _, s := range rec.Steps {
		for h := range s.Hosts {
			all[h] = true
		}
	}
	return orderHosts(sortedSet(all), rec.Meta.Hosts)
}

// orderHosts sorts names by their place in order; names not in order
// come last, by name.
func orderHosts(names, order []string) []string {
	idx := map[string]int{}
	for i, h := range order {
		if _, ok := idx[h]; !ok {
			idx[h] = i
		}
	}
	rank := func(s string) int {
		if i, ok := idx[s]; ok {
			return i
		}
		return len(order)
	}
	out := append([]string(nil), names...)
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i]), rank(out[j])
		if ri != rj {
			return ri < rj
		}
		return out[i] < out[j]
	})
	return out
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// waiverList returns the waivers of the file in file order.
func (r *Report) waiverList() []*waiver.Waiver {
	if r.waiverSet == nil {
		return nil
	}
	return r.waiverSet.Waivers
}
