package report

import (
	"strings"

	"github.com/provadev/prova/internal/evidence/record"
)

// LatencyPoint is one node's latency over RDMA and TCP, in µs; nil when
// not measured.
type LatencyPoint struct {
	Host   string   `json:"host"`
	RDMAUs *float64 `json:"rdma_us,omitempty"`
	TCPUs  *float64 `json:"tcp_us,omitempty"`
	// Measure names what was measured: the step that gave the figure
	// (compare.nvmeof_4k, bench.bench_rdma...). Charts put one measure
	// on one axis.
	Measure string `json:"measure,omitempty"`
	// Threshold is the latency check's threshold on this host, if any.
	Threshold string `json:"threshold,omitempty"`
}

// BandwidthPoint is one node's large sequential bandwidth over RDMA and
// TCP: MiB/s and share of line rate (0..1).
type BandwidthPoint struct {
	Host      string   `json:"host"`
	RDMAMiBs  *float64 `json:"rdma_mib_s,omitempty"`
	TCPMiBs   *float64 `json:"tcp_mib_s,omitempty"`
	RDMAShare *float64 `json:"rdma_share,omitempty"`
	TCPShare  *float64 `json:"tcp_share,omitempty"`
}

// CPUPoint is one node's CPU cost at full bandwidth over RDMA and TCP.
type CPUPoint struct {
	Host          string   `json:"host"`
	SoftPctRDMA   *float64 `json:"soft_pct_rdma,omitempty"`
	SoftPctTCP    *float64 `json:"soft_pct_tcp,omitempty"`
	BusyCoresRDMA *float64 `json:"busy_cores_rdma,omitempty"`
	BusyCoresTCP  *float64 `json:"busy_cores_tcp,omitempty"`
	// Threshold is the CPU check's threshold on this host, if any.
	Threshold string `json:"threshold,omitempty"`
}

// PeerPoint is one node's RDMA peer coverage.
type PeerPoint struct {
	Host      string `json:"host"`
	Connected int    `json:"connected"`
	Expected  int    `json:"expected"`
}

// latencyAttrs are the benchmark attributes read from steps whose ID names
// the transport (bench.bench_rdma, bench.bench_tcp).
var latencyAttrs = []string{"lat_avg_us", "latency_us", "lat_us", "t_avg_us"}

// measure finds a transport's figure on a host: first an attribute naming
// the transport and matching match (a compare step's lat_rdma_us),
// then one of fallback in a step whose ID names the transport.
func measure(rec *record.Record, h, tr string, match func(string) bool, fallback []string) *float64 {
	v, _ := measureFrom(rec, h, tr, match, fallback)
	return v
}

// measureFrom is measure, also naming the step the figure came from (for
// a fallback, the step without its transport: bench.bench_rdma gives
// "bench.bench").
func measureFrom(rec *record.Record, h, tr string, match func(string) bool, fallback []string) (*float64, string) {
	var found *float64
	from := ""
	hostResults(rec, h, func(s record.Step, hr record.HostResult) {
		if found == nil {
			if _, v, ok := findAttr(hr.Result, tr, match); ok {
				found, from = &v, s.Step
			}
		}
	})
	if found != nil {
		return found, from
	}
	hostResults(rec, h, func(s record.Step, hr record.HostResult) {
		if found != nil || !strings.Contains(strings.ToLower(s.Step), tr) {
			return
		}
		for _, a := range fallback {
			if v, ok := number(hr.Result[a]); ok {
				found = &v
				from = strings.Trim(strings.ReplaceAll(strings.ToLower(s.Step), tr, ""), "_-")
				return
			}
		}
	})
	return found, from
}

func latencyPoints(rec *record.Record, hosts []string) []LatencyPoint {
	isLat := func(k string) bool {
		return strings.Contains(k, "lat") && strings.HasSuffix(k, "_us") || strings.Contains(k, "lat") && strings.Contains(k, "_us_")
	}
	var out []LatencyPoint
	for _, h := range hosts {
		rdma, from := measureFrom(rec, h, "rdma", isLat, latencyAttrs)
		tcp, fromTCP := measureFrom(rec, h, "tcp", isLat, latencyAttrs)
		if from == "" {
			from = fromTCP
		}
		p := LatencyPoint{Host: h, RDMAUs: rdma, TCPUs: tcp, Measure: from, Threshold: checkThreshold(rec, h, from, LineLatency)}
		if p.RDMAUs != nil || p.TCPUs != nil {
			out = append(out, p)
		}
	}
	return out
}

func cpuPoints(rec *record.Record, hosts []string) []CPUPoint {
	soft := func(k string) bool { return strings.Contains(k, "soft") }
	busy := func(k string) bool { return strings.Contains(k, "busy") }
	var out []CPUPoint
	for _, h := range hosts {
		p := CPUPoint{Host: h,
			SoftPctRDMA: measure(rec, h, "rdma", soft, []string{"soft_pct"}), SoftPctTCP: measure(rec, h, "tcp", soft, []string{"soft_pct"}),
			BusyCoresRDMA: measure(rec, h, "rdma", busy, []string{"busy_cores"}), BusyCoresTCP: measure(rec, h, "tcp", busy, []string{"busy_cores"}),
			Threshold: checkThreshold(rec, h, "", LineCPU)}
		if p.SoftPctRDMA != nil || p.SoftPctTCP != nil || p.BusyCoresRDMA != nil || p.BusyCoresTCP != nil {
			out = append(out, p)
		}
	}
	return out
}

// peerPoints reads rdma_count (verbs_conn since 1,000-node clusters) or
// rdma_peers (a list or a count: older records) and expected_count or
// expected (a count or a list), else counts missing, from the first step
// of each host that has one of the first two.
func peerPoints(rec *record.Record, hosts []string) []PeerPoint {
	var out []PeerPoint
	for _, h := range hosts {
		var p *PeerPoint
		hostResults(rec, h, func(_ record.Step, hr record.HostResult) {
			if p != nil {
				return
			}
			n, ok := count(hr.Result["rdma_count"])
			if !ok {
				n, ok = count(hr.Result["rdma_peers"])
			}
			if !ok {
				return
			}
			p = &PeerPoint{Host: h, Connected: n, Expected: n}
			if e, ok := count(hr.Result["expected_count"]); ok {
				p.Expected = e
			} else if e, ok := count(hr.Result["expected"]); ok {
				p.Expected = e
			} else if m, ok := count(hr.Result["missing"]); ok {
				p.Expected = n + m
			}
		})
		if p != nil {
			out = append(out, *p)
		}
	}
	return out
}

func count(v any) (int, bool) {
	if l, ok := v.([]any); ok {
		return len(l), true
	}
	if f, ok := number(v); ok && f >= 0 {
		return int(f), true
	}
	return 0, false
}

// checkThreshold is the threshold of the first check of a line on host h,
// preferring the given step's.
func checkThreshold(rec *record.Record, h, step, line string) string {
	thr := ""
	for _, s := range rec.Steps {
		hr, ok := s.Hosts[h]
		if !ok {
			continue
		}
		for _, c := range hr.Checks {
			if lineOf(s.Module, c.Name) != line || c.Threshold == "" {
				continue
			}
			if s.Step == step {
				return c.Threshold
			}
			if thr == "" {
				thr = c.Threshold
			}
		}
	}
	return thr
}

func bandwidthPoints(rec *record.Record, hosts []string) []BandwidthPoint {
	isBW := func(k string) bool {
		return (strings.Contains(k, "bw") || strings.Contains(k, "bandwidth")) && !strings.Contains(k, "share")
	}
	isShare := func(k string) bool {
		return (strings.Contains(k, "bw") || strings.Contains(k, "bandwidth")) && strings.Contains(k, "share")
	}
	var out []BandwidthPoint
	for _, h := range hosts {
		p := BandwidthPoint{Host: h,
			RDMAMiBs: measure(rec, h, "rdma", isBW, []string{"mib_s", "bw_mib_s"}), TCPMiBs: measure(rec, h, "tcp", isBW, []string{"mib_s", "bw_mib_s"}),
			RDMAShare: measure(rec, h, "rdma", isShare, nil), TCPShare: measure(rec, h, "tcp", isShare, nil)}
		if p.RDMAMiBs != nil || p.TCPMiBs != nil || p.RDMAShare != nil || p.TCPShare != nil {
			out = append(out, p)
		}
	}
	return out
}
