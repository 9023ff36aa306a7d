// Package reportfixture writes synthetic run records for report and baseline
// tests: a small cluster that ran version facts, an RDMA peer check,
// latency benchmarks over RDMA and TCP, an RDMA-vs-TCP comparison with the
// three acceptance lines, and a peer assertion, all through record.Create
// and engine events, as a real apply would.
//
// It is test support: nothing in prova's binary imports it.
package reportfixture

import (
	"fmt"
	"math"
	"strconv"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/record"
)

// Host is one node's measurements.
type Host struct {
	Name             string
	LatRDMA, LatTCP  float64 // µs
	SoftRDMA         float64 // %soft at full bandwidth
	SoftTCP          float64
	BusyRDMA         float64 // busy cores
	BusyTCP          float64
	ShareRDMA        float64 // bandwidth, fraction of line rate
	ShareTCP         float64
	Peers            []string // RDMA peers connected
	Expected         int      // peers expected
	OFED             string
	Unreachable      bool // the facts step could not reach the host
	NoMeasurements   bool // the host took no part in the benchmarks
	LatencyThreshold string
}

// Spec is a whole run.
type Spec struct {
	RunID   string
	Started time.Time
	Hosts   []Host
	// Baseline is written into the record's meta.
	Baseline string
}

// Cluster returns a four-node run: gpfs01-03 healthy, gpfs04 with one
// RDMA peer missing (its peer assertion fails) and an older OFED.
func Cluster() Spec {
	names := []string{"gpfs01", "gpfs02", "gpfs03", "gpfs04"}
	s := Spec{RunID: "20261130T021500Z-a1b2c3", Started: time.Date(2026, 11, 30, 2, 15, 0, 0, time.UTC)}
	for i, n := range names {
		var peers []string
		for _, p := range names {
			if p != n {
				peers = append(peers, p)
			}
		}
		h := Host{Name: n, LatRDMA: []float64{1.9, 2.0, 2.1, 2.2}[i], LatTCP: []float64{6.2, 6.4, 6.6, 6.8}[i],
			SoftRDMA: []float64{1.1, 1.2, 1.3, 1.4}[i], SoftTCP: 8.3, BusyRDMA: 0.6, BusyTCP: 3.9,
			ShareRDMA: 0.94, ShareTCP: 0.91, Peers: peers, Expected: len(names) - 1, OFED: "24.10-1.1.4.0"}
		if n == "gpfs04" {
			h.Peers = peers[:2]
			h.OFED = "23.10-0.5.5.0"
		}
		s.Hosts = append(s.Hosts, h)
	}
	return s
}

// Step IDs the fixture records, in run order. The compare step's outputs
// and check names are those of modules/compare; the benchmarks keep their
// evidence under the command that produced it, as modules/bench does.
var Steps = []string{"ofed.ofed", "shell.versions", "verbs_conn.conn", "bench.bench_rdma", "bench.bench_tcp",
	"bench.seq_rdma", "bench.seq_tcp", "compare.rdma_vs_tcp", "assert.rdma_peers"}

// Write records spec under root and returns the record's directory.
func Write(t testing.TB, root string, spec Spec) string {
	t.Helper()
	var hosts []string
	for _, h := range spec.Hosts {
		hosts = append(hosts, h.Name)
	}
	w, err := record.Create(root, record.Meta{
		RunID: spec.RunID, Mode: "apply", Runbook: "runbooks/gpfs-verbs-rdma.hcl", RunbookHash: "sha256:1f2e3d4c",
		Inventory: "prod.hcl", InventoryHash: "sha256:9a8b7c6d", ProvaVersion: "v0.3.0", Started: spec.Started,
		Hosts: hosts, Baseline: spec.Baseline, Vars: map[string]any{"pagepool": "16G"},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Observe(event.RunStarted{RunID: spec.RunID, Mode: "apply", Hosts: hosts, Steps: Steps, Time: spec.Started})
	failed := false
	gen := map[string]func(Host) *event.HostFinished{
		"ofed.ofed": ofed, "shell.versions": versions, "verbs_conn.conn": verbsConn,
		"bench.bench_rdma":    func(h Host) *event.HostFinished { return bench(h, "rdma", h.LatRDMA, h.SoftRDMA, h.BusyRDMA) },
		"bench.bench_tcp":     func(h Host) *event.HostFinished { return bench(h, "tcp", h.LatTCP, h.SoftTCP, h.BusyTCP) },
		"bench.seq_rdma":      func(h Host) *event.HostFinished { return seq(h, "rdma", h.ShareRDMA) },
		"bench.seq_tcp":       func(h Host) *event.HostFinished { return seq(h, "tcp", h.ShareTCP) },
		"compare.rdma_vs_tcp": compare, "assert.rdma_peers": assertPeers,
	}
	for _, id := range Steps {
		mod, name := split(id)
		w.Observe(event.StepStarted{Step: id, Module: mod, Name: name, Hosts: hosts})
		for _, h := range spec.Hosts {
			e := gen[id](h)
			if e == nil {
				continue
			}
			e.Step, e.Host = id, h.Name
			if e.Status == "" {
				e.Status = event.OK
			}
			failed = failed || e.Status == event.Failed || e.Status == event.Unreachable
			w.Observe(*e)
		}
		w.Observe(event.StepFinished{Step: id, Duration: time.Second})
	}
	w.Observe(event.RunFinished{RunID: spec.RunID, Mode: "apply", Failed: failed, Duration: 95 * time.Second,
		Time: spec.Started.Add(95 * time.Second)})
	if err := w.Close(""); err != nil {
		t.Fatal(err)
	}
	return w.Dir()
}

func ofed(h Host) *event.HostFinished {
	if h.Unreachable {
		return &event.HostFinished{Status: event.Unreachable, Message: "dial tcp 127.0.0.1:2204: connect: connection refused"}
	}
	return &event.HostFinished{Result: map[string]any{"installed": true, "version": h.OFED, "stdout": "MLNX_OFED_LINUX-" + h.OFED + ":\n"}}
}

func versions(h Host) *event.HostFinished {
	if h.Unreachable {
		return nil
	}
	return &event.HostFinished{Result: map[string]any{
		"nvme_cli_version": "2.8", "elbencho_version": "3.0.19", "rc": 0.0,
		"stdout": "nvme version 2.8\nelbencho 3.0.19\n",
	}}
}

func verbsConn(h Host) *event.HostFinished {
	if h.Unreachable {
		return nil
	}
	peers := make([]any, len(h.Peers))
	conn := ""
	for i, p := range h.Peers {
		peers[i] = p
		conn += fmt.Sprintf("conn %d RTS %s\n", i, p)
	}
	expected := make([]any, 0, h.Expected)
	for i := range h.Expected {
		expected = append(expected, fmt.Sprintf("peer%d", i))
	}
	missing := []any{}
	for i := len(h.Peers); i < h.Expected; i++ {
		missing = append(missing, fmt.Sprintf("peer%d", i))
	}
	return &event.HostFinished{
		Result:   map[string]any{"rdma_peers": peers, "expected": expected, "missing": missing},
		Evidence: map[string]string{"mmfsadm test verbs conn": conn},
	}
}

func bench(h Host, tr string, lat, soft, busy float64) *event.HostFinished {
	if h.Unreachable || h.NoMeasurements {
		return nil
	}
	return &event.HostFinished{
		Result: map[string]any{"lat_avg_us": lat, "soft_pct": soft, "busy_cores": busy, "transport": tr},
		Evidence: map[string]string{
			"ib_write_lat -d mlx5_0 -s 4096 -n 1000 peer": fmt.Sprintf(" 4096       1000          %s\n", num(lat)),
			"mpstat -P ALL 1 10":                          fmt.Sprintf("Average:  all  %s\n", num(soft)),
		},
	}
}

func seq(h Host, tr string, share float64) *event.HostFinished {
	if h.Unreachable || h.NoMeasurements {
		return nil
	}
	return &event.HostFinished{
		Result:   map[string]any{"mib_s": mibs(share), "transport": tr},
		Evidence: map[string]string{"elbencho --write --block 1m --size 10g /dev/nvme1n1": fmt.Sprintf("WRITE  %s MiB/s\n", num(mibs(share)))},
	}
}

// mibs turns a share of a 100 Gb/s line into MiB/s.
func mibs(share float64) float64 { return math.Round(share * 100e9 / 8 / (1 << 20)) }

func compare(h Host) *event.HostFinished {
	if h.Unreachable || h.NoMeasurements {
		return nil
	}
	ratio := math.Round(h.LatRDMA/h.LatTCP*100) / 100
	drop := math.Round((h.SoftTCP - h.SoftRDMA) / h.SoftTCP * 100)
	latThr := h.LatencyThreshold
	if latThr == "" {
		latThr = "<= 0.50"
	}
	lat := verdict(ratio <= 0.5)
	if h.LatencyThreshold != "" {
		lat = "fail"
	}
	checks := []event.Check{
		{Name: "latency: RDMA/TCP ratio", Measured: fmt.Sprintf("%.2f (%.1f µs / %.1f µs)", ratio, h.LatRDMA, h.LatTCP), Threshold: latThr, Verdict: lat},
		{Name: "cpu: %soft drop RDMA vs TCP", Measured: fmt.Sprintf("%.0f %% (%%soft %.2f vs %.2f), busy cores %.1f vs %.1f", drop, h.SoftRDMA, h.SoftTCP, h.BusyRDMA, h.BusyTCP),
			Threshold: ">= 50 % and fewer busy cores", Verdict: verdict(drop >= 50)},
		{Name: "bandwidth: large sequential, share of line rate", Threshold: ">= 90 % (warning only)", Verdict: "pass",
			Measured: fmt.Sprintf("RDMA %.0f MiB/s, TCP %.0f MiB/s = %.0f %% / %.0f %% of 100 Gb/s", mibs(h.ShareRDMA), mibs(h.ShareTCP), h.ShareRDMA*100, h.ShareTCP*100)},
	}
	if lat == "fail" {
		checks[0].Message = fmt.Sprintf("RDMA latency is %.2f of TCP's, more than allowed", ratio)
	}
	st := event.OK
	for _, c := range checks {
		if c.Verdict == "fail" {
			st = event.Failed
		}
	}
	return &event.HostFinished{Status: st, Checks: checks,
		Result: map[string]any{
			"lat_rdma_us": h.LatRDMA, "lat_tcp_us": h.LatTCP, "latency_ratio": ratio,
			"soft_rdma_pct": h.SoftRDMA, "soft_tcp_pct": h.SoftTCP, "soft_drop_pct": drop,
			"busy_cores_rdma": h.BusyRDMA, "busy_cores_tcp": h.BusyTCP,
			"bw_rdma_mib_s": mibs(h.ShareRDMA), "bw_tcp_mib_s": mibs(h.ShareTCP), "bw_share_rdma": h.ShareRDMA, "bw_share_tcp": h.ShareTCP,
			"profile": "prova-default/1", "latency": lat, "verdict": verdict(st == event.OK),
		}}
}

func assertPeers(h Host) *event.HostFinished {
	if h.Unreachable {
		return nil
	}
	ok := len(h.Peers) >= h.Expected
	c := event.Check{Name: "peers", Measured: strconv.Itoa(len(h.Peers)), Threshold: ">= " + strconv.Itoa(h.Expected), Verdict: verdict(ok)}
	e := &event.HostFinished{Severity: "fail", Checks: []event.Check{c}}
	if !ok {
		e.Status = event.Failed
		e.Checks[0].Message = fmt.Sprintf("%s has %d of %d RDMA peers", h.Name, len(h.Peers), h.Expected)
		e.Message = e.Checks[0].Message
	}
	return e
}

func verdict(ok bool) string {
	if ok {
		return "pass"
	}
	return "fail"
}

func num(v float64) string { return strconv.FormatFloat(math.Round(v*1e4)/1e4, 'f', -1, 64) }

func split(id string) (string, string) {
	for i := range id {
		if id[i] == '.' {
			return id[:i], id[i+1:]
		}
	}
	return id, ""
}
