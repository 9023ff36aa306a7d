package rdmalat

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/sync/errgroup"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/parse/perftest"
)

// Latency is the rdma_latency module.
type Latency struct {
	// connectWait bounds how long a client retries while its server is
	// still starting.
	connectWait time.Duration
	retryEvery  time.Duration
}

// New returns the module.
func New() *Latency {
	return &Latency{connectWait: 15 * time.Second, retryEvery: 200 * time.Millisecond}
}

// ID implements module.Module.
func (*Latency) ID() string { return "rdma_latency" }

type args struct {
	Mode          string            `cty:"mode"`
	Reference     *string           `cty:"reference"`
	Addresses     map[string]string `cty:"addresses"`
	Tool          string            `cty:"tool"`
	Device        *string           `cty:"device"`
	IBPort        *int              `cty:"ib_port"`
	Size          int               `cty:"size"`
	Iterations    int               `cty:"iterations"`
	Port          int               `cty:"port"`
	Concurrency   int               `cty:"concurrency"`
	OutlierFactor float64           `cty:"outlier_factor"`
	MaxLatUs      *float64          `cty:"max_lat_us"`
}

func withDefault(name string, ty cty.Type, v cty.Value) hcldec.Spec {
	return &hcldec.DefaultSpec{Primary: &hcldec.AttrSpec{Name: name, Type: ty}, Default: &hcldec.LiteralSpec{Value: v}}
}

// Spec implements module.Module.
func (*Latency) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"mode":           withDefault("mode", cty.String, cty.StringVal("reference")),
		"reference":      &hcldec.AttrSpec{Name: "reference", Type: cty.String},
		"addresses":      &hcldec.AttrSpec{Name: "addresses", Type: cty.Map(cty.String)},
		"tool":           withDefault("tool", cty.String, cty.StringVal("ib_write_lat")),
		"device":         &hcldec.AttrSpec{Name: "device", Type: cty.String},
		"ib_port":        &hcldec.AttrSpec{Name: "ib_port", Type: cty.Number},
		"size":           withDefault("size", cty.Number, cty.NumberIntVal(2)),
		"iterations":     withDefault("iterations", cty.Number, cty.NumberIntVal(1000)),
		"port":           withDefault("port", cty.Number, cty.NumberIntVal(18515)),
		"concurrency":    withDefault("concurrency", cty.Number, cty.NumberIntVal(4)),
		"outlier_factor": withDefault("outlier_factor", cty.Number, cty.NumberFloatVal(2)),
		"max_lat_us":     &hcldec.AttrSpec{Name: "max_lat_us", Type: cty.Number},
	}
}

var pairType = cty.Object(map[string]cty.Type{
	"peer": cty.String, "role": cty.String, "ok": cty.Bool, "error": cty.String,
	"lat_avg_us": cty.Number, "lat_typical_us": cty.Number, "lat_min_us": cty.Number,
	"lat_max_us": cty.Number, "lat_p99_us": cty.Number, "lat_p999_us": cty.Number,
})

// Outputs implements module.Module.
func (*Latency) Outputs() cty.Type {
	return cty.Object(map[string]cty.Type{
		"lat_avg_us":        cty.Number,
		"lat_p99_us":        cty.Number,
		"cluster_median_us": cty.Number,
		"outlier":           cty.Bool,
		"pairs":             cty.List(pairType),
	})
}

// Validate implements module.Module.
func (*Latency) Validate(v cty.Value) hcl.Diagnostics {
	var diags hcl.Diagnostics
	bad := func(summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail})
	}
	if m := v.GetAttr("mode"); m.IsKnown() && !m.IsNull() {
		if s := m.AsString(); s != "reference" && s != "all" {
			bad("Invalid mode", `mode must be "reference" (every node against one reference node) or "all" (every pair).`)
		}
	}
	if t := v.GetAttr("tool"); t.IsKnown() && !t.IsNull() {
		if s := t.AsString(); s != "ib_write_lat" && s != "ib_read_lat" && s != "ib_send_lat" {
			bad("Invalid tool", "tool must be ib_write_lat, ib_read_lat or ib_send_lat.")
		}
	}
	for _, n := range []string{"size", "iterations", "concurrency", "outlier_factor"} {
		if x := v.GetAttr(n); x.IsKnown() && !x.IsNull() && x.LessThanOrEqualTo(cty.Zero).True() {
			bad("Invalid "+n, n+" must be positive.")
		}
	}
	return diags
}

// Plan implements module.Module: the test only measures.
func (*Latency) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	return module.PlanResponse{Action: module.NoOp, ReadOnly: true, Summary: "measures RDMA latency between node pairs"}, ctx.Err()
}

// Apply implements module.Module. A latency test needs two hosts; the
// engine calls ApplyCluster instead.
func (*Latency) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	return module.ApplyResponse{}, fmt.Errorf("rdma_latency needs several hosts; it runs through ApplyCluster")
}

// measure is one pair's result.
type measure struct {
	pair
	row *perftest.LatencyRow
	err error
	raw string
}

// ApplyCluster implements module.ClusterModule.
func (l *Latency) ApplyCluster(ctx context.Context, req module.ClusterRequest) (map[string]module.ApplyResponse, error) {
	var a args
	if err := module.Decode(req.Args, &a); err != nil {
		return nil, err
	}
	out := map[string]module.ApplyResponse{}
	if len(req.Order) < 2 {
		for _, h := range req.Order {
			out[h] = module.ApplyResponse{Failed: true, Message: "rdma_latency needs at least two hosts"}
		}
		return out, nil
	}
	ref := req.Order[0]
	if a.Reference != nil && *a.Reference != "" {
		ref = *a.Reference
		if _, ok := req.Hosts[ref]; !ok {
			return nil, fmt.Errorf("reference host %q is not among the step's hosts", ref)
		}
	}
	var results []measure
	var mu sync.Mutex
	for _, round := range schedule(req.Order, a.Mode, ref) {
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(a.Concurrency)
		for _, p := range round {
			g.Go(func() error {
				m := l.run(gctx, req, a, p)
				mu.Lock()
				results = append(results, m)
				mu.Unlock()
				if module.IsUnreachable(m.err) {
					return m.err
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	return judge(req.Order, results, a), nil
}

func (l *Latency) command(a args, server string) string {
	argv := []string{a.Tool}
	if a.Device != nil && *a.Device != "" {
		argv = append(argv, "-d", *a.Device)
	}
	if a.IBPort != nil {
		argv = append(argv, "-i", fmt.Sprint(*a.IBPort))
	}
	argv = append(argv, "-s", fmt.Sprint(a.Size), "-n", fmt.Sprint(a.Iterations), "-p", fmt.Sprint(a.Port))
	if server != "" {
		argv = append(argv, server)
	}
	return module.Command(argv...)
}

// run measures one pair: the server waits on its host while the client,
// retried while the server is still starting, connects to it.
func (l *Latency) run(ctx context.Context, req module.ClusterRequest, a args, p pair) measure {
	m := measure{pair: p}
	sh, ch := req.Hosts[p.server], req.Hosts[p.client]
	addr := p.server
	if v, ok := a.Addresses[p.server]; ok {
		addr = v
	}
	sctx, cancelServer := context.WithCancel(ctx)
	defer cancelServer()
	serverDone := make(chan module.Output, 1)
	go func() {
		o, _ := module.Capture(sctx, sh, l.command(a, ""))
		serverDone <- o
	}()
	deadline := time.Now().Add(l.connectWait)
	for {
		o, err := module.Capture(ctx, ch, l.command(a, addr))
		if err != nil {
			m.err = err
			return m
		}
		m.raw = o.Stdout + o.Stderr
		if o.RC == 0 {
			r, perr := perftest.ParseLatency([]byte(o.Stdout))
			switch {
			case perr != nil:
				m.err = fmt.Errorf("%s on %s: %w", a.Tool, p.client, perr)
			case r.NoDevice:
				m.err = fmt.Errorf("%s on %s: no RDMA device: %s", a.Tool, p.client, r.Message)
			case len(r.Latency) == 0:
				m.err = fmt.Errorf("%s on %s printed no latency table", a.Tool, p.client)
			default:
				row := r.Latency[len(r.Latency)-1]
				m.row = &row
			}
			break
		}
		if !strings.Contains(m.raw, "Couldn't connect") || time.Now().After(deadline) {
			m.err = fmt.Errorf("%s from %s to %s (%s) failed with rc %d: %s", a.Tool, p.client, p.server, addr, o.RC, lastLine(m.raw))
			break
		}
		t := time.NewTimer(l.retryEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			m.err = ctx.Err()
			return m
		case <-t.C:
		}
	}
	// The server ends by itself once its client is done; give it a moment,
	// then stop it so nothing is left running on the host.
	t := time.NewTimer(5 * time.Second)
	select {
	case <-serverDone:
	case <-t.C:
		cancelServer()
		<-serverDone
	}
	t.Stop()
	return m
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// judge turns pair measurements into per-host results: each host's average
// over its pairs, compared with max_lat_us and with outlier_factor times
// the cluster median.
func judge(order []string, ms []measure, a args) map[string]module.ApplyResponse {
	perHost := map[string][]measure{}
	for _, m := range ms {
		perHost[m.server] = append(perHost[m.server], m)
		perHost[m.client] = append(perHost[m.client], m)
	}
	avg := map[string]float64{}
	var all []float64
	for h, list := range perHost {
		var sum float64
		n := 0
		for _, m := range list {
			if m.row != nil {
				sum += m.row.AvgUs
				n++
			}
		}
		if n > 0 {
			avg[h] = sum / float64(n)
			all = append(all, avg[h])
		}
	}
	med := median(all)
	// A failed test has two ends. A host whose every test failed is where
	// the problem lies; a host that passed some tests and failed only with
	// such hosts is not blamed for those.
	allFailed := map[string]bool{}
	for h, list := range perHost {
		failed := 0
		for _, m := range list {
			if m.row == nil {
				failed++
			}
		}
		allFailed[h] = failed == len(list) && len(list) > 0
	}
	out := map[string]module.ApplyResponse{}
	for _, h := range order {
		list := perHost[h]
		var pairs []cty.Value
		var fails, notes []string
		p99 := 0.0
		for _, m := range list {
			peer, role := m.client, "server"
			if m.client == h {
				peer, role = m.server, "client"
			}
			pv := map[string]cty.Value{"peer": cty.StringVal(peer), "role": cty.StringVal(role), "ok": cty.BoolVal(m.row != nil),
				"error": cty.StringVal(""), "lat_avg_us": cty.NullVal(cty.Number), "lat_typical_us": cty.NullVal(cty.Number),
				"lat_min_us": cty.NullVal(cty.Number), "lat_max_us": cty.NullVal(cty.Number),
				"lat_p99_us": cty.NullVal(cty.Number), "lat_p999_us": cty.NullVal(cty.Number)}
			if m.row != nil {
				pv["lat_avg_us"] = cty.NumberFloatVal(m.row.AvgUs)
				pv["lat_typical_us"] = cty.NumberFloatVal(m.row.TypicalUs)
				pv["lat_min_us"] = cty.NumberFloatVal(m.row.MinUs)
				pv["lat_max_us"] = cty.NumberFloatVal(m.row.MaxUs)
				pv["lat_p99_us"] = cty.NumberFloatVal(m.row.P99Us)
				pv["lat_p999_us"] = cty.NumberFloatVal(m.row.P999Us)
				p99 = math.Max(p99, m.row.P99Us)
			} else {
				pv["error"] = cty.StringVal(m.err.Error())
				if !allFailed[h] && allFailed[peer] {
					notes = append(notes, fmt.Sprintf("test with %s failed, which fails every test: the problem is on its side", peer))
				} else {
					fails = append(fails, fmt.Sprintf("test with %s failed: %v", peer, m.err))
				}
			}
			pairs = append(pairs, cty.ObjectVal(pv))
		}
		resp := module.ApplyResponse{Evidence: map[string]string{}}
		for _, m := range list {
			if m.client == h && m.raw != "" {
				resp.Evidence[fmt.Sprintf("%s to %s", a.Tool, m.server)] = m.raw
			}
		}
		lat, has := avg[h]
		outlier := has && med > 0 && lat > a.OutlierFactor*med
		check := module.Check{Name: a.Tool + " latency", Verdict: "pass"}
		if has {
			check.Measured = fmt.Sprintf("%.2f µs", lat)
			check.Threshold = fmt.Sprintf("<= %.1f x cluster median (%.2f µs)", a.OutlierFactor, med)
			if a.MaxLatUs != nil {
				check.Threshold += fmt.Sprintf(", <= %g µs", *a.MaxLatUs)
			}
		}
		switch {
		case !has:
			check.Verdict, check.Measured = "fail", "no measurement"
		case outlier:
			fails = append(fails, fmt.Sprintf("%.2f µs is more than %.1f x the cluster median of %.2f µs", lat, a.OutlierFactor, med))
		case a.MaxLatUs != nil && lat > *a.MaxLatUs:
			fails = append(fails, fmt.Sprintf("%.2f µs is above the %g µs limit", lat, *a.MaxLatUs))
		}
		if len(fails) > 0 {
			check.Verdict = "fail"
			check.Message = strings.Join(fails, "; ")
			resp.Failed = true
			resp.Message = h + ": " + check.Message
		} else if len(notes) > 0 {
			resp.Message = h + ": " + strings.Join(notes, "; ")
		}
		resp.Checks = []module.Check{check}
		pl := cty.ListValEmpty(pairType)
		if len(pairs) > 0 {
			pl = cty.ListVal(pairs)
		}
		num := func(ok bool, x float64) cty.Value {
			if !ok {
				return cty.NullVal(cty.Number)
			}
			return cty.NumberFloatVal(x)
		}
		resp.Outputs = cty.ObjectVal(map[string]cty.Value{
			"lat_avg_us":        num(has, lat),
			"lat_p99_us":        num(p99 > 0, p99),
			"cluster_median_us": num(med > 0, med),
			"outlier":           cty.BoolVal(outlier),
			"pairs":             pl,
		})
		out[h] = resp
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Doc implements module.Describer.
func (*Latency) Doc() module.Doc {
	return module.Doc{
		Summary: "ib_write_lat between node pairs (each node against a reference node, or all pairs), no node in two tests at once; outliers named against the cluster median",
		Args: map[string]string{
			"mode":           `"reference" (default: every node against the reference node, one at a time) or "all" (every pair, in rounds of disjoint pairs)`,
			"reference":      "the reference node (default: the first host of the step)",
			"addresses":      "map of host name to the address the client connects to (the server's RDMA-network address); default: the host name",
			"tool":           "ib_write_lat (default), ib_read_lat or ib_send_lat",
			"device":         "RDMA device (-d), e.g. mlx5_0",
			"ib_port":        "device port (-i)",
			"size":           "message size in bytes (-s, default 2)",
			"iterations":     "iterations (-n, default 1000)",
			"port":           "TCP port of perftest's handshake (-p, default 18515)",
			"concurrency":    "at most this many pairs at once within a round (default 4)",
			"outlier_factor": "a node whose average latency is above this factor of the cluster median fails (default 2)",
			"max_lat_us":     "optional absolute limit on a node's average latency, in µs",
		},
		Outputs: map[string]string{
			"lat_avg_us":        "this node's average latency over its pairs, µs",
			"lat_p99_us":        "the worst 99th percentile over its pairs, µs",
			"cluster_median_us": "median of the nodes' averages, µs",
			"outlier":           "whether this node is above outlier_factor x the median",
			"pairs":             "every test this node took part in: peer, role, ok, error, latencies",
		},
		Example: `step "rdma_latency" "pairs" {
  mode       = "reference"
  max_lat_us = 10
  addresses  = { for h in inventory.hosts : h => inventory.host[h].vars.data_address }
}`,
	}
}

var (
	_ module.Module        = (*Latency)(nil)
	_ module.ClusterModule = (*Latency)(nil)
	_ module.Describer     = (*Latency)(nil)
)
