package findings

import (
	"sort"
	"sync"

	"github.com/provadev/prova/engine/event"
)

// Finding is one host-step that did not end clean.
type Finding struct {
	Host    string       `json:"host"`
	Step    string       `json:"step"`
	Status  event.Status `json:"status"` // failed, warn or unreachable
	Cause   string       `json:"cause,omitempty"`
	Message string       `json:"message,omitempty"`
	// Peers are the peers the host's diagnosis is about (its missing
	// RDMA peers); with cause peer_side they name the likely culprits.
	Peers []string `json:"peers,omitempty"`
}

// CausePeerSide is the cause verbs_diagnose names when this node reaches
// others and the missing peers are the problem.
const CausePeerSide = "peer_side"

// CauseUnreachable is the cause given to an unreachable host.
const CauseUnreachable = "unreachable"

// Collector gathers findings. It is safe for concurrent use.
type Collector struct {
	mu       sync.Mutex
	list     []Finding
	cause    map[string]string   // host -> cause named by a diagnosing step
	peers    map[string][]string // host -> peers the diagnosis is about
	explain  map[string]string   // host -> the diagnosis in one sentence
	hostSeen map[string]bool
}

// NewCollector returns an empty collector.
func NewCollector() *Collector {
	return &Collector{cause: map[string]string{}, peers: map[string][]string{}, explain: map[string]string{}, hostSeen: map[string]bool{}}
}

// Observe keeps HostFinished outcomes; other events are ignored.
func (c *Collector) Observe(e event.Event) {
	if hf, ok := event.Value(e).(event.HostFinished); ok {
		c.Add(hf.Step, hf.Host, hf.Status, hf.Message, hf.Result)
	}
}

// Add records one host-step outcome with its result object (nil allowed).
func (c *Collector) Add(step, host string, status event.Status, message string, result map[string]any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hostSeen[host] = true
	if cause, ok := result["cause"].(string); ok && cause != "" && cause != "none" {
		c.cause[host] = cause
		c.peers[host] = stringList(result["missing"])
		if ex, ok := result["explanation"].(string); ok {
			c.explain[host] = ex
		}
	}
	switch status {
	case event.Failed, event.Warned, event.Unreachable:
	default:
		return
	}
	c.list = append(c.list, Finding{Host: host, Step: step, Status: status, Message: message})
}

func stringList(v any) []string {
	l, ok := v.([]any)
	if !ok {
		if s, ok := v.([]string); ok {
			return append([]string(nil), s...)
		}
		return nil
	}
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// Findings returns every finding in the order they were added, each with
// the cause its host's diagnosis named (unreachable hosts: "unreachable").
func (c *Collector) Findings() []Finding {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Finding, len(c.list))
	for i, f := range c.list {
		f.Cause = c.cause[f.Host]
		if f.Status == event.Unreachable && f.Cause == "" {
			f.Cause = CauseUnreachable
		}
		f.Peers = append([]string(nil), c.peers[f.Host]...)
		out[i] = f
	}
	return out
}

// Cause returns the cause a diagnosing step named for host and the peers
// the diagnosis is about.
func (c *Collector) Cause(host string) (string, []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause[host], append([]string(nil), c.peers[host]...)
}

// Explanation returns the one-sentence diagnosis of host, if a step gave one.
func (c *Collector) Explanation(host string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.explain[host]
}

// Split returns the failed (failed and unreachable) and the warned findings.
func Split(fs []Finding) (failed, warned []Finding) {
	for _, f := range fs {
		if f.Status == event.Warned {
			warned = append(warned, f)
		} else {
			failed = append(failed, f)
		}
	}
	return failed, warned
}

// Group is the hosts that share a status and a cause.
type Group struct {
	Status event.Status `json:"status"`
	Cause  string       `json:"cause,omitempty"`
	Hosts  []string     `json:"hosts"`
	// Steps are the steps the group's hosts failed or warned in, in
	// first-seen order.
	Steps []string `json:"steps"`
	// Message is the first finding's message.
	Message string `json:"message,omitempty"`
}

// ByCause groups findings by status and cause: failures first, then
// warnings; within each, the groups with fewer hosts first (the culprit
// is usually the one odd host), then by cause. Hosts keep first-seen order.
func ByCause(fs []Finding) []Group {
	type key struct {
		st    event.Status
		cause string
	}
	idx := map[key]int{}
	var gs []Group
	hostIn := map[key]map[string]bool{}
	stepIn := map[key]map[string]bool{}
	for _, f := range fs {
		k := key{f.Status, f.Cause}
		if f.Status == event.Unreachable {
			k.st = event.Failed
		}
		i, ok := idx[k]
		if !ok {
			i = len(gs)
			idx[k] = i
			gs = append(gs, Group{Status: k.st, Cause: f.Cause, Message: f.Message})
			hostIn[k], stepIn[k] = map[string]bool{}, map[string]bool{}
		}
		if !hostIn[k][f.Host] {
			hostIn[k][f.Host] = true
			gs[i].Hosts = append(gs[i].Hosts, f.Host)
		}
		if !stepIn[k][f.Step] {
			stepIn[k][f.Step] = true
			gs[i].Steps = append(gs[i].Steps, f.Step)
		}
	}
	sort.SliceStable(gs, func(i, j int) bool {
		fi, fj := gs[i].Status != event.Warned, gs[j].Status != event.Warned
		if fi != fj {
			return fi
		}
		if len(gs[i].Hosts) != len(gs[j].Hosts) {
			return len(gs[i].Hosts) < len(gs[j].Hosts)
		}
		return gs[i].Cause < gs[j].Cause
	})
	return gs
}
