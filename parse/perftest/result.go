package perftest

// Result is one perftest run as printed by one side.
type Result struct {
	// Tool is the binary inferred from the title, e.g. "ib_write_bw";
	// empty when the title was not printed (cut output).
	Tool string `json:"tool,omitempty"`
	// Test is the title as printed, e.g. "RDMA_Write BW Test".
	Test string `json:"test,omitempty"`
	// Kind is "latency" or "bandwidth", from the title or the table.
	Kind string `json:"kind,omitempty"`
	// Side is "server" when the "Waiting for client to connect" banner was
	// printed, "client" otherwise (for output with a title or a table).
	Side string `json:"side,omitempty"`

	// NoDevice is true when perftest found no RDMA device.
	NoDevice bool   `json:"no_device"`
	Message  string `json:"message,omitempty"`
	// Version is set for `--version` output ("Version: 6.06").
	Version string `json:"version,omitempty"`

	Header Header    `json:"header"`
	Local  []Address `json:"local,omitempty"`
	Remote []Address `json:"remote,omitempty"`

	// Columns are the result table's column names as printed.
	Columns   []string       `json:"columns,omitempty"`
	Latency   []LatencyRow   `json:"latency,omitempty"`
	Bandwidth []BandwidthRow `json:"bandwidth,omitempty"`

	Warnings []string `json:"warnings,omitempty"`
	Errors   []string `json:"errors,omitempty"`
}

// HasResults reports whether a result table with at least one row was read.
func (r *Result) HasResults() bool { return len(r.Latency)+len(r.Bandwidth) > 0 }

// Header holds the parameter block printed before the addresses.
type Header struct {
	Device         string `json:"device,omitempty"`
	Transport      string `json:"transport,omitempty"`       // "IB"
	ConnectionType string `json:"connection_type,omitempty"` // "RC", "UD"
	LinkType       string `json:"link_type,omitempty"`       // "IB", "Ethernet"
	DataExchange   string `json:"data_exchange,omitempty"`   // "Ethernet", "rdma_cm"
	NumQPs         int    `json:"num_qps,omitempty"`
	DualPort       bool   `json:"dual_port"`
	UsingSRQ       bool   `json:"using_srq"`
	RDMACM         bool   `json:"rdma_cm"`
	TXDepth        int    `json:"tx_depth,omitempty"`
	CQModeration   int    `json:"cq_moderation,omitempty"`
	MTU            int    `json:"mtu_bytes,omitempty"`
	GIDIndex       int    `json:"gid_index,omitempty"`
	MaxInline      int    `json:"max_inline_bytes,omitempty"`
	OutstandReads  int    `json:"outstand_reads,omitempty"`
	// Fields holds every "key : value" of the block as printed.
	Fields map[string]string `json:"fields,omitempty"`
}

// Address is one "local address:" or "remote address:" line (one per QP)
// with the "GID:" line that may follow it.
type Address struct {
	LID   string `json:"lid,omitempty"`
	QPN   string `json:"qpn,omitempty"`
	PSN   string `json:"psn,omitempty"`
	OUT   string `json:"out,omitempty"`
	RKey  string `json:"rkey,omitempty"`
	VAddr string `json:"vaddr,omitempty"`
	GID   string `json:"gid,omitempty"`
}

// LatencyRow is one row of a latency table; times are in microseconds.
// Columns the table did not have are 0 (see Result.Columns).
type LatencyRow struct {
	Bytes      int64   `json:"bytes"`
	Iterations int64   `json:"iterations"`
	MinUs      float64 `json:"t_min_us"`
	MaxUs      float64 `json:"t_max_us"`
	TypicalUs  float64 `json:"t_typical_us"`
	AvgUs      float64 `json:"t_avg_us"`
	StdevUs    float64 `json:"t_stdev_us"`
	P99Us      float64 `json:"p99_us"`
	P999Us     float64 `json:"p99_9_us"`
	// TPS is "tps average" of duration mode (-D).
	TPS float64 `json:"tps,omitempty"`
}

// BandwidthRow is one row of a bandwidth table, in both units.
type BandwidthRow struct {
	Bytes      int64   `json:"bytes"`
	Iterations int64   `json:"iterations"`
	PeakMiBps  float64 `json:"bw_peak_mibps"`
	AvgMiBps   float64 `json:"bw_avg_mibps"`
	PeakGbps   float64 `json:"bw_peak_gbps"`
	AvgGbps    float64 `json:"bw_avg_gbps"`
	// PeakMeasured is false when perftest printed 0.00 (duration mode).
	PeakMeasured bool    `json:"peak_measured"`
	MsgRateMpps  float64 `json:"msg_rate_mpps"`
	// Unit is the bandwidth unit as printed: "MB/sec", "MiB/sec", "Gb/sec".
	Unit string `json:"unit"`
}

const bytesPerMiB = 1 << 20

// mibToGbps converts MiB/s to Gb/s (10^9 bit/s).
func mibToGbps(v float64) float64 { return v * bytesPerMiB * 8 / 1e9 }

// gbpsToMiB converts Gb/s (10^9 bit/s) to MiB/s.
func gbpsToMiB(v float64) float64 { return v * 1e9 / 8 / bytesPerMiB }
