package elbencho

import "github.com/provadev/prova/parse/bench"

// Result is the outcome of one elbencho run: its phases in order.
type Result struct {
	Phases []Phase   `json:"phases"`
	Live   []LiveRow `json:"live,omitempty"` // --livecsv stdout rows, if interleaved
}

// Phase is one benchmark phase (WRITE, READ, MKDIRS, DROPCACHE, ...).
// The normalised fields come from the LAST DONE column (the end result
// when the slowest worker finished).
type Phase struct {
	Name          string            `json:"name"`
	IOPS          float64           `json:"iops"`
	MiBps         float64           `json:"mib_s"`
	ElapsedMs     float64           `json:"elapsed_ms"`
	LatUs         bench.Latency     `json:"lat_us"`               // IO latency, else entry latency
	EntryType     string            `json:"entry_type,omitempty"` // Files, Dirs, Objects, Buckets
	EntriesPerSec float64           `json:"entries_s,omitempty"`
	First         Column            `json:"first_done"`
	Last          Column            `json:"last_done"`
	Latency       []Latency         `json:"latency,omitempty"`
	Rows          []Row             `json:"rows,omitempty"`   // every table row as printed
	Config        map[string]string `json:"config,omitempty"` // --csvfile settings columns
}

// Column holds one result column (FIRST DONE or LAST DONE).
type Column struct {
	ElapsedMs     float64 `json:"elapsed_ms"`
	IOPS          float64 `json:"iops"`  // "IOPS", or "IOPS total" in rwmix phases
	MiBps         float64 `json:"mib_s"` // "Throughput MiB/s" (MB/s converted), or the rwmix total
	TotalMiB      float64 `json:"total_mib"`
	EntriesPerSec float64 `json:"entries_s"`
	Entries       float64 `json:"entries"`
	CPUPct        float64 `json:"cpu_pct"`
}

// Row is a result table row as printed: two values or a "[ ... ]" list.
type Row struct {
	Line  int      `json:"line"`
	Label string   `json:"label"`
	First string   `json:"first,omitempty"`
	Last  string   `json:"last,omitempty"`
	List  []string `json:"list,omitempty"`
}

// Latency is one latency type of a phase (IO, or the entry type: Dirs,
// Files, Objects) in µs.
type Latency struct {
	Type              string             `json:"type"`
	Us                bench.Latency      `json:"us"`                    // min/avg/max and p50/p99/p99.9
	Percentiles       map[string]float64 `json:"percentiles,omitempty"` // "1", "50", "75", "99", "99.9" -> µs upper bound
	HistogramExceeded bool               `json:"histogram_exceeded,omitempty"`
	Histogram         []Bucket           `json:"histogram,omitempty"`
}

// Bucket is a --lathisto bucket: Count operations took up to Us µs.
type Bucket struct {
	Us    float64 `json:"us"`
	Count uint64  `json:"count"`
}

// Bench returns the phase as a normalised benchmark result.
func (p Phase) Bench() bench.Result {
	r := bench.Result{Tool: "elbencho", Name: p.Name, Op: phaseOp(p.Name), IOPS: p.IOPS, LatUs: p.LatUs,
		Runtime: msDuration(p.ElapsedMs)}
	r.SetMiBps(p.MiBps)
	return r
}

// Bench returns every phase as a normalised benchmark result.
func (r Result) Bench() []bench.Result {
	out := make([]bench.Result, 0, len(r.Phases))
	for _, p := range r.Phases {
		out = append(out, p.Bench())
	}
	return out
}

// Phase returns the first phase called name (e.g. "READ").
func (r Result) Phase(name string) (Phase, bool) {
	for _, p := range r.Phases {
		if p.Name == name {
			return p, true
		}
	}
	return Phase{}, false
}
