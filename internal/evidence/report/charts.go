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
}

// CPUPoint is one node's CPU cost at full bandwidth over RDMA and TCP.
type CPUPoint struct {
	Host          string   `json:"host"`
	SoftPctRDMA   *float64 `json:"soft_pct_rdma,omitempty"`
	SoftPctTCP    *float64 `json:"soft_pct_tcp,omitempty"`
	BusyCoresRDMA *float64 `json:"busy_cores_rdma,omitempty"`
	BusyCoresTCP  *float64 `json:"busy_cores_tcp,omitempty"`
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
	var found *float64
	hostResults(rec, h, func(s record.Step, hr record.HostResult) {
		if found == nil {
			if _, v, ok := findAttr(hr.Result, tr, match); ok {
				found = &v
			}
		}
	})
	if found != nil {
		return found
	}
	hostResults(rec, h, func(s record.Step, hr record.HostResult) {
		if found != nil || !strings.Contains(strings.ToLower(s.Step), tr) {
			return
		}
		for _, a := range fallback {
			if v, ok := number(hr.Result[a]); ok {
				found = &v
				return
			}
		}
	})
	return found
}

func latencyPoints(rec *record.Record, hosts []string) []LatencyPoint {
	isLat := func(k string) bool {
		return strings.Contains(k, "lat") && strings.HasSuffix(k, "_us") || strings.Contains(k, "lat") && strings.Contains(k, "_us_")
	}
	var out []LatencyPoint
	for _, h := range hosts {
		p := LatencyPoint{Host: h, RDMAUs: measure(rec, h, "rdma", isLat, latencyAttrs), TCPUs: measure(rec, h, "tcp", isLat, latencyAttrs)}
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
			BusyCoresRDMA: measure(rec, h, "rdma", busy, []string{"busy_cores"}), BusyCoresTCP: measure(rec, h, "tcp", busy, []string{"busy_cores"})}
		if p.SoftPctRDMA != nil || p.SoftPctTCP != nil || p.BusyCoresRDMA != nil || p.BusyCoresTCP != nil {
			out = append(out, p)
		}
	}
	return out
}

// peerPoints reads rdma_peers (a list or a count) and expected (a count or
// a list), else counts missing, from the first step of each host that has
// rdma_peers.
func peerPoints(rec *record.Record, hosts []string) []PeerPoint {
	var out []PeerPoint
	for _, h := range hosts {
		var p *PeerPoint
		hostResults(rec, h, func(_ record.Step, hr record.HostResult) {
			if p != nil {
				return
			}
			n, ok := count(hr.Result["rdma_peers"])
			if !ok {
				return
			}
			p = &PeerPoint{Host: h, Connected: n, Expected: n}
			if e, ok := count(hr.Result["expected"]); ok {
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
