package bench

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// IbWriteLat and IbWriteBw simulate perftest's ib_write_lat and
// ib_write_bw (perftest 6.06): "TOOL [-d DEV] [-i PORT] [-s SIZE] [-n ITERS]
// [-a] [-F] [--report_gbits]" starts a server that waits for a client;
// "TOOL [...] SERVER" runs the client against the server node whose data
// address (or name) is SERVER. Every node has them.
func IbWriteLat() sim.Tool {
	return sim.Tool{Name: "ib_write_lat", Run: func(ctx context.Context, e *sim.Env) int { return runPerftest(ctx, e, "ib_write_lat") }}
}

// IbWriteBw is the bandwidth test; see IbWriteLat.
func IbWriteBw() sim.Tool {
	return sim.Tool{Name: "ib_write_bw", Run: func(ctx context.Context, e *sim.Env) int { return runPerftest(ctx, e, "ib_write_bw") }}
}

// ServerWait is how long a simulated perftest server waits for its client.
const ServerWait = 2 * time.Minute

type ptOpts struct {
	lat      bool
	dev      string
	port     int
	size     int64
	iters    int
	all      bool
	gbits    bool
	duration time.Duration
	server   string // client mode: the server's address
	version  bool
}

func parsePerftest(tool string, args []string) (*ptOpts, error) {
	o := &ptOpts{lat: tool == "ib_write_lat", port: 1, size: 2, iters: 1000}
	if !o.lat {
		o.size, o.iters = 65536, 5000
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		val := func() (string, error) {
			if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "--") {
				return v, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("option %s requires an argument", a)
			}
			i++
			return args[i], nil
		}
		var err error
		var v string
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "-d", "--ib-dev":
			o.dev, err = val()
		case "-i", "--ib-port":
			if v, err = val(); err == nil {
				o.port, err = strconv.Atoi(v)
			}
		case "-s", "--size":
			if v, err = val(); err == nil {
				o.size, err = strconv.ParseInt(v, 10, 64)
			}
		case "-n", "--iters":
			if v, err = val(); err == nil {
				o.iters, err = strconv.Atoi(v)
			}
		case "-D", "--duration":
			if v, err = val(); err == nil {
				var s int
				s, err = strconv.Atoi(v)
				o.duration = time.Duration(s) * time.Second
			}
		case "-p", "--port":
			// perftest's TCP handshake port. The lab pairs a client with
			// the server registered at its address (one server per tool
			// and node at a time), so the number is checked, not used.
			if v, err = val(); err == nil {
				var p int
				if p, err = strconv.Atoi(v); err == nil && (p < 1 || p > 65535) {
					err = fmt.Errorf("port %d out of range", p)
				}
			}
		case "-a", "--all":
			o.all = true
		case "--report_gbits":
			o.gbits = true
		case "-F", "--CPU-freq":
		case "--version":
			o.version = true
		default:
			if strings.HasPrefix(a, "-") {
				return nil, fmt.Errorf(" Invalid command line option %s", a)
			}
			o.server = a
		}
		if err != nil || o.size < 1 || o.iters < 1 {
			return nil, fmt.Errorf(" Invalid value for %s", a)
		}
	}
	return o, nil
}

// endpoint is one side's RDMA device as the other side sees it.
type endpoint struct {
	Node      string    `json:"node"`
	Addr      string    `json:"addr"`
	Device    string    `json:"device"`
	LinkLayer string    `json:"link_layer"`
	Rate      int       `json:"rate"`
	LID       int       `json:"lid"`
	Fault     string    `json:"fault,omitempty"`
	QP        [3]uint32 `json:"qp"` // QPN, PSN, RKey
}

func (p *endpoint) addrLine(who string) string {
	lid := fmt.Sprintf("0x%02x", p.LID)
	if p.LinkLayer == "Ethernet" {
		lid = "0000"
	}
	s := fmt.Sprintf(" %s address: LID %s QPN 0x%04x PSN 0x%06x RKey 0x%06x VAddr 0x%014x\n", who, lid, p.QP[0], p.QP[1], p.QP[2], uint64(p.QP[1])<<20|0x7f0000000000)
	if p.LinkLayer == "Ethernet" {
		s += " GID: 00:00:00:00:00:00:00:00:00:00:255:255:" + gidIP(p.Addr) + "\n"
	}
	return s
}

func gidIP(addr string) string {
	var parts []string
	for _, x := range strings.Split(addr, ".") {
		v, _ := strconv.Atoi(x)
		parts = append(parts, fmt.Sprintf("%02d", v))
	}
	return strings.Join(parts, ":")
}

const ptRule = "---------------------------------------------------------------------------------------\n"

// localEndpoint finds the device the test uses; it prints perftest's error
// and reports false when there is none.
func localEndpoint(e *sim.Env, n *model.Node, o *ptOpts, r *rand.Rand) (*endpoint, bool) {
	if !n.HasRDMA() {
		fmt.Fprint(e.Stderr, " Did not detect devices \n If device exists, check if driver is up\n Unable to find the Infiniband/RoCE device\n")
		return nil, false
	}
	h := &n.HCAs[0]
	if o.dev != "" {
		var ok bool
		if h, ok = n.HCA(o.dev); !ok {
			fmt.Fprintf(e.Stderr, " IB device %s not found\n Unable to find the Infiniband/RoCE device\n", o.dev)
			return nil, false
		}
	}
	p, ok := h.Port(o.port)
	if !ok || p.State != "Active" {
		state := "Down"
		if ok {
			state = model.StateUpper(p.State)
		}
		fmt.Fprintf(e.Stderr, " Port number %d state is %s\n Couldn't set the link layer\n Couldn't get context for the device\n", o.port, state)
		return nil, false
	}
	return &endpoint{Node: n.Name, Addr: n.DataAddress, Device: h.Name, LinkLayer: p.LinkLayer, Rate: p.Rate, LID: p.LID,
		Fault: n.Faults.RDMAConnect, QP: [3]uint32{0x100 + r.Uint32N(0xf00), r.Uint32N(1 << 24), r.Uint32N(1 << 21)}}, true
}

func writeHeader(w io.Writer, o *ptOpts, me *endpoint, server bool) {
	title := "RDMA_Write BW Test"
	if o.lat {
		title = "RDMA_Write Latency Test"
	}
	var b strings.Builder
	b.WriteString(ptRule)
	fmt.Fprintf(&b, "                    %s\n", title)
	fmt.Fprintf(&b, " Dual-port       : OFF\t\tDevice         : %s\n", me.Device)
	b.WriteString(" Number of qps   : 1\t\tTransport type : IB\n Connection type : RC\t\tUsing SRQ      : OFF\n")
	if o.lat {
		b.WriteString(" PCIe relax order: OFF\n ibv_wr* API     : ON\n")
		if !server {
			b.WriteString(" TX depth        : 1\n")
		}
	} else {
		b.WriteString(" PCIe relax order: ON\n ibv_wr* API     : ON\n")
		if !server {
			b.WriteString(" TX depth        : 128\n")
		}
		b.WriteString(" CQ Moderation   : 100\n")
	}
	mtu, link := "4096", "IB"
	if me.LinkLayer == "Ethernet" {
		mtu, link = "1024", "Ethernet"
	}
	fmt.Fprintf(&b, " Mtu             : %s[B]\n Link type       : %s\n", mtu, link)
	if link == "Ethernet" {
		b.WriteString(" GID index       : 3\n")
	}
	inline := "0"
	if o.lat {
		inline = "220"
	}
	fmt.Fprintf(&b, " Max inline data : %s[B]\n rdma_cm QPs\t : OFF\n Data ex. method : Ethernet\n", inline)
	b.WriteString(ptRule)
	io.WriteString(w, b.String())
}

// sizes are the message sizes of a run (-a: 2 bytes to 8 MiB).
func (o *ptOpts) sizes() []int64 {
	if !o.all {
		return []int64{o.size}
	}
	var s []int64
	for x := int64(2); x <= 1<<23; x <<= 1 {
		s = append(s, x)
	}
	return s
}

// latRow computes one latency row (µs) for size bs between a and b.
func latRow(r *rand.Rand, a, b *endpoint, bs int64, iters int) []float64 {
	base := 1.05
	if a.LinkLayer == "Ethernet" || b.LinkLayer == "Ethernet" {
		base = 2.1
	}
	rate := float64(min(a.Rate, b.Rate))
	typ := (base + float64(bs)*8/rate/1000) * noise(r, 3)
	lossless := a.Fault == "lossless" || b.Fault == "lossless"
	n := max(iters, 100)
	s := lognormal(r, n, typ, 0.03)
	if lossless {
		for i := range s {
			if r.Float64() < 0.04 {
				s[i] += 60 + r.ExpFloat64()*150
			}
		}
	}
	l := newLatStats(s)
	return []float64{float64(bs), float64(iters), l.Min, l.Max, l.P(50), l.Mean, l.Stdev, l.P(99), l.P(99.9)}
}

// bwRow computes one bandwidth row (MiB/s) for size bs.
func bwRow(r *rand.Rand, a, b *endpoint, bs int64, iters int) []float64 {
	rate := float64(min(a.Rate, b.Rate))
	eff := 0.965
	if a.LinkLayer == "Ethernet" || b.LinkLayer == "Ethernet" {
		eff = 0.94
	}
	if a.Fault == "lossless" || b.Fault == "lossless" {
		eff = 0.55 * noise(r, 10)
	}
	line := rate * 1e9 / 8 / mib * eff
	// Small messages are bound by the message rate, not the wire.
	msgCap := 30e6 * float64(bs) / mib
	avg := math.Min(line, msgCap) * noise(r, 0.7)
	peak := avg * (1 + 0.0005*r.Float64())
	return []float64{float64(bs), float64(iters), peak, avg, avg * mib / float64(bs) / 1e6}
}

// placeCols formats values at perftest's column positions: each field is
// at least width wide and separated as in the real output.
func placeCols(cols []int, width int, vals []string) string {
	var b strings.Builder
	pos := 0
	for i, v := range vals {
		gap := cols[i] - pos
		if i > 0 {
			gap = cols[i] - (cols[i-1] + width)
		}
		b.WriteString(strings.Repeat(" ", max(gap, 1)))
		if i < len(vals)-1 {
			fmt.Fprintf(&b, "%-*s", width, v)
		} else {
			b.WriteString(v)
		}
		pos += gap + max(width, len(v))
	}
	return b.String() + "\n"
}

const latTableHeader = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]\n"

var latCols = []int{1, 9, 23, 38, 51, 71, 88, 104, 128}

func latLine(row []float64) string {
	vals := []string{strconv.FormatInt(int64(row[0]), 10), strconv.FormatInt(int64(row[1]), 10)}
	for _, v := range row[2:] {
		vals = append(vals, fmt.Sprintf("%.2f", v))
	}
	return placeCols(latCols, 7, vals)
}

func bwHeader(gbits bool) string {
	unit := "MB/sec"
	if gbits {
		unit = "Gb/sec"
	}
	return fmt.Sprintf(" #bytes     #iterations    BW peak[%s]    BW average[%s]   MsgRate[Mpps]\n", unit, unit)
}

func bwLine(row []float64, gbits bool) string {
	peak, avg := row[2], row[3]
	if gbits {
		peak, avg = peak*mib*8/1e9, avg*mib*8/1e9
	}
	return fmt.Sprintf(" %-7d    %-7d          %-7.2f            %-7.2f\t\t   %-7.6f\n", int64(row[0]), int64(row[1]), peak, avg, row[4])
}
