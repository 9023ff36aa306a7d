package bench

import (
	"math"
	"math/rand/v2"
	"time"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim/nvme"
)

// path is how a device is reached: its transport and the line rate.
type path struct {
	Transport string // pcie, tcp or rdma
	Gbps      int    // line rate of the data path; 0 for pcie
	Lossless  bool   // RDMA over a network without working PFC/ECN
	NUMA      int    // NUMA node of the data port's HCA
	// DeviceIOPS is the small-block ceiling of the device behind a fabric
	// path (the target's namespace); 0 for pcie (capacity has its own).
	DeviceIOPS float64
}

func pathOf(n *model.Node, tr string) path {
	p := path{Transport: tr, Gbps: nvme.LineRate(n, tr)}
	if tr != "pcie" {
		p.DeviceIOPS = float64(n.NVMeoF.DeviceIOPS())
	}
	if hca, _, ok := nvme.DataPort(n, tr); ok && hca != "" {
		if h, ok := n.HCA(hca); ok {
			p.NUMA = h.NUMA
		}
	}
	p.Lossless = tr == "rdma" && n.Faults.RDMAConnect == "lossless"
	return p
}

// workload is one benchmark phase.
type workload struct {
	Write    bool
	Random   bool
	BS       int64 // bytes
	Inflight int   // threads x iodepth
	Time     time.Duration
	Size     int64 // bytes to move when Time is 0
}

// outcome is what a phase achieved.
type outcome struct {
	IOPS    float64
	Bps     float64 // bytes per second
	Elapsed time.Duration
	IOs     int64
	Lat     latStats // µs
	Load    loadProfile
}

const mib = 1 << 20

// capacity is what a path can do at most: bytes/s and IOPS, the IOPS of
// a fabric path capped by the device behind it.
func capacity(r *rand.Rand, p path) (bps, iops float64) {
	bps, iops = linkCapacity(r, p)
	if p.DeviceIOPS > 0 {
		iops = math.Min(iops, p.DeviceIOPS*noise(r, runNoise))
	}
	return bps, iops
}

// linkCapacity is what the transport and link can do.
func linkCapacity(r *rand.Rand, p path) (bps, iops float64) {
	switch {
	case p.Transport == "pcie":
		return 6.8e9 * noise(r, 2), 1.0e6 * noise(r, runNoise)
	case p.Lossless:
		return float64(p.Gbps) * 1e9 / 8 * 0.55 * noise(r, 8), 0.35e6 * noise(r, 10)
	case p.Transport == "rdma":
		return float64(p.Gbps) * 1e9 / 8 * 0.935 * noise(r, 1), 2.6e6 * noise(r, runNoise)
	}
	return float64(p.Gbps) * 1e9 / 8 * 0.925 * noise(r, 1), 1.1e6 * noise(r, runNoise)
}

// latencies draws per-IO service latencies (µs) for block size bs.
func latencies(r *rand.Rand, p path, w workload) []float64 {
	const n = 20000
	xfer := 0.0 // time on the wire
	if p.Gbps > 0 {
		xfer = float64(w.BS) * 8 / float64(p.Gbps) / 1000
	} else {
		xfer = float64(w.BS) / 6.8e3
	}
	extra := 0.0
	if w.Write {
		extra = 8
	}
	var s []float64
	switch {
	case p.Lossless: // pause-less drops: retransmissions and long tails
		s = append(lognormal(r, n*60/100, 70, 0.3), lognormal(r, n*35/100, 260, 0.4)...)
		s = append(s, lognormal(r, n*5/100, 1500, 0.5)...)
	case p.Transport == "rdma":
		s = lognormal(r, n, 24*noise(r, runNoise), 0.12)
	case p.Transport == "tcp":
		s = lognormal(r, n, 86*noise(r, runNoise), 0.2)
	default:
		s = lognormal(r, n, 78*noise(r, runNoise), 0.15)
	}
	for i := range s {
		s[i] += xfer + extra
	}
	return s
}

// simulate computes a phase's outcome on path p.
func simulate(r *rand.Rand, p path, w workload, cpus int) outcome {
	bps, iopsCap := capacity(r, p)
	lat := newLatStats(latencies(r, p, w))
	iops := math.Min(float64(max(w.Inflight, 1))/lat.Mean*1e6, math.Min(iopsCap, bps/float64(w.BS)))
	if w.Write {
		iops *= 0.93
	}
	// Little's law at every block size: N I/Os in flight at this IOPS wait
	// N / IOPS on average; once the link or the device is the bottleneck,
	// the queue, not the transport, sets the latency.
	if little := float64(max(w.Inflight, 1)) / iops * 1e6; little > lat.Mean {
		lat = lat.Scale(little / lat.Mean)
	}
	o := outcome{IOPS: iops, Bps: iops * float64(w.BS), Lat: lat}
	if w.Time > 0 {
		o.Elapsed = w.Time
	} else {
		o.Elapsed = time.Duration(float64(w.Size) / o.Bps * float64(time.Second))
	}
	o.IOs = int64(o.IOPS * o.Elapsed.Seconds())
	work := math.Max(o.Bps/bps, iops/iopsCap)
	o.Load = profile(r, p, work, cpus)
	o.Load.First = p.NUMA
	return o
}
