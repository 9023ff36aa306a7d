package rdmalat

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"golang.org/x/sync/errgroup"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/perftest"
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

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Latency) NewArgs() any { return new(args) }

// Spec implements module.Module.
func (*Latency) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"mode":           module.WithDefault("mode", cty.String, cty.StringVal("reference")),
		"reference":      &hcldec.AttrSpec{Name: "reference", Type: cty.String},
		"addresses":      &hcldec.AttrSpec{Name: "addresses", Type: cty.Map(cty.String)},
		"tool":           module.WithDefault("tool", cty.String, cty.StringVal("ib_write_lat")),
		"device":         &hcldec.AttrSpec{Name: "device", Type: cty.String},
		"ib_port":        &hcldec.AttrSpec{Name: "ib_port", Type: cty.Number},
		"size":           module.WithDefault("size", cty.Number, cty.NumberIntVal(2)),
		"iterations":     module.WithDefault("iterations", cty.Number, cty.NumberIntVal(1000)),
		"port":           module.WithDefault("port", cty.Number, cty.NumberIntVal(18515)),
		"concurrency":    module.WithDefault("concurrency", cty.Number, cty.NumberIntVal(4)),
		"outlier_factor": module.WithDefault("outlier_factor", cty.Number, cty.NumberFloatVal(2)),
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
	a, known, err := module.DecodeKnown[args](v)
	if err != nil {
		bad("Invalid arguments", err.Error())
		return diags
	}
	if known["mode"] && a.Mode != "reference" && a.Mode != "all" {
		bad("Invalid mode", `mode must be "reference" (every node against one reference node) or "all" (every pair).`)
	}
	if known["tool"] && a.Tool != "ib_write_lat" && a.Tool != "ib_read_lat" && a.Tool != "ib_send_lat" {
		bad("Invalid tool", "tool must be ib_write_lat, ib_read_lat or ib_send_lat.")
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"size", float64(a.Size)}, {"iterations", float64(a.Iterations)}, {"concurrency", float64(a.Concurrency)}, {"outlier_factor", a.OutlierFactor}} {
		if known[c.name] && c.v <= 0 {
			bad("Invalid "+c.name, c.name+" must be positive.")
		}
	}
	return diags
}

// Reads implements module.ReadOnly: the test only measures.
func (*Latency) Reads(cty.Value) string { return "measures RDMA latency between node pairs" }

// ApplyOnly implements module.ApplyOnly: a latency sweep loads the fabric;
// plan does not run it.
func (*Latency) ApplyOnly() {}

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
	a, err := module.Args[args](req)
	if err != nil {
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
