package mpstat

// Result is one mpstat run.
type Result struct {
	Host      Host       `json:"host"`
	Intervals []Interval `json:"intervals"`
	// Average holds the "Average:" rows; nil when mpstat printed none
	// (JSON output, or a run stopped without SIGINT).
	Average []CPULoad `json:"average,omitempty"`
	// Truncated is true when the last line or JSON value was cut and
	// dropped.
	Truncated bool `json:"truncated"`
}

// Host is the banner line ("Linux 6.1.0 (node1)  11/29/26  _x86_64_  (2 CPU)")
// or the JSON host object.
type Host struct {
	Sysname  string `json:"sysname,omitempty"`
	Release  string `json:"release,omitempty"`
	Nodename string `json:"nodename,omitempty"`
	Date     string `json:"date,omitempty"`
	Machine  string `json:"machine,omitempty"`
	CPUs     int    `json:"cpus,omitempty"`
}

// Interval is the set of rows printed for one sampling interval.
type Interval struct {
	Time string    `json:"time"` // as printed, e.g. "14:03:48" or "02:04:06 PM"
	CPUs []CPULoad `json:"cpus"`
}

// CPULoad is one row: CPU is "all" or the CPU number. Percentages; a
// column the sysstat version did not print is 0.
type CPULoad struct {
	CPU    string  `json:"cpu"`
	Usr    float64 `json:"usr"`
	Nice   float64 `json:"nice"`
	Sys    float64 `json:"sys"`
	IOWait float64 `json:"iowait"`
	IRQ    float64 `json:"irq"`
	Soft   float64 `json:"soft"`
	Steal  float64 `json:"steal"`
	Guest  float64 `json:"guest"`
	GNice  float64 `json:"gnice"`
	Idle   float64 `json:"idle"`
}

// Report is what `prova parse mpstat` prints: the result and its summary.
type Report struct {
	*Result
	Summary Summary `json:"summary"`
}
