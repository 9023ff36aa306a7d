package verbsconn

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

// Conn is the "verbs_conn" module. The zero value is ready to use.
type Conn struct{}

// New returns the verbs_conn module.
func New() *Conn { return &Conn{} }

// ID returns "verbs_conn".
func (*Conn) ID() string { return "verbs_conn" }

// Spec describes the module's arguments.
func (*Conn) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{"expected": &hcldec.AttrSpec{Name: "expected", Type: cty.List(cty.String)}}
}

// The outputs grow with the exceptions, not with the cluster: a node of a
// healthy 1,000-node cluster reports two counts and empty lists, not the
// 999 names of its peers (every name and state is in the raw verbs conn
// output the run record keeps).
var outputsType = cty.Object(map[string]cty.Type{
	"node":           cty.String,
	"expected_count": cty.Number,
	"rdma_count":     cty.Number,
	"missing":        cty.List(cty.String),
	"missing_state":  cty.Map(cty.String),
	"unexpected":     cty.List(cty.String),
})

// Outputs: how many peers are expected and connected over RDMA, and the
// exceptions by name.
func (*Conn) Outputs() cty.Type { return outputsType }

// Validate has nothing to check.
func (*Conn) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*Conn) Doc() module.Doc {
	return module.Doc{
		Summary: "Lists, per node, the expected peers without a connected RDMA connection (mmfsadm test verbs conn against mmlscluster): the silent fallback to TCP. Read-only.",
		Args: map[string]string{
			"expected": "Peers this node must reach over RDMA: GPFS node names (daemon or admin, short or long) or IPs. Default: every other node mmlscluster lists.",
		},
		Outputs: map[string]string{
			"node":           "This node's GPFS daemon name (\"\" when mmlscluster lists it neither by inventory name nor by an address of the host).",
			"expected_count": "How many peers this node must reach over RDMA.",
			"rdma_count":     "How many expected peers have at least one connected RDMA entry.",
			"missing":        "Expected peers without one, by daemon name: they talk to this node over TCP.",
			"missing_state":  "Missing peer -> what verbs conn shows for it: \"no entry\", or the states of its entries (\"connecting\").",
			"unexpected":     "Peers connected over RDMA that were not expected.",
		},
		Example: `step "verbs_conn" "conn" {
  hosts = "gpfs"
}

step "assert" "rdma_peers" {
  condition     = length(step.conn.missing) == 0
  error_message = "${host.name} has no RDMA connection to ${join(", ", step.conn.missing)}"
}`,
	}
}

type args struct {
	Expected []string `cty:"expected"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Conn) NewArgs() any { return new(args) }

// Reads implements module.ReadOnly.
func (*Conn) Reads(cty.Value) string {
	return "reads mmdiag --verbs -Y where it exists, else mmfsadm test verbs conn (or conns), and mmlscluster"
}

// Apply reads the connections and the cluster and compares them.
func (*Conn) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	h := req.Host
	cr, err := gpfscmd.VerbsConn(ctx, h)
	if err != nil {
		return resp, err
	}
	conns, connRaw, down := cr.Conns, cr.Raw, cr.Down
	evidence := map[string]string{cr.Command: connRaw}
	if conns.Empty && down == "" {
		if err := emptyButStarted(ctx, h, cr, evidence); err != nil {
			return resp, err
		}
	}
	cl, clRaw, err := gpfscmd.Cluster(ctx, h)
	if err != nil {
		return resp, err
	}
	self, found, err := gpfscmd.LocalNode(ctx, h, cl)
	if err != nil {
		return resp, err
	}
	r := gpfscmd.Report(cl, self, found, conns, a.Expected, h.Name())
	evidence["mmlscluster"] = clRaw
	resp.Evidence = evidence
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{
		"node": cty.StringVal(r.Self), "expected_count": cty.NumberIntVal(int64(len(r.Expected))),
		"rdma_count": cty.NumberIntVal(int64(len(r.RDMA))), "missing": module.StringList(r.Missing),
		"missing_state": stringMap(r.MissingState), "unexpected": module.StringList(r.Unexpected),
	})
	name := r.Self
	if name == "" {
		name = h.Name()
	}
	c := module.Check{Name: "RDMA peers of " + name, Measured: fmt.Sprintf("%d/%d", len(r.RDMA), len(r.Expected)),
		Threshold: "every expected peer", Verdict: "pass"}
	if len(r.Missing) > 0 {
		c.Verdict = "fail"
		c.Message = fmt.Sprintf("%s has no RDMA connection to %s (TCP fallback)", name, strings.Join(r.Missing, ", "))
		resp.Message = c.Message
	} else {
		resp.Message = fmt.Sprintf("%s: RDMA to all %d expected peers", name, len(r.Expected))
	}
	if down != "" {
		resp.Message += "; mmfsadm: " + down
	}
	for _, n := range r.Notes {
		resp.Message += "; " + n
	}
	resp.Checks = []module.Check{c}
	return resp, nil
}

// emptyButStarted checks output that printed nothing at all: with VERBS RDMA
// started and TCP connections to peers (mmdiag --network), an empty list
// cannot be read as "no RDMA connections", so it is an error that says so.
// With RDMA not started, or no peer connected at all, empty is believable.
func emptyButStarted(ctx context.Context, h module.Host, cr gpfscmd.ConnRead, evidence map[string]string) error {
	st, raw, down, err := gpfscmd.Status(ctx, h)
	if err != nil {
		return err
	}
	evidence["mmfsadm test verbs status"] = raw
	if down != "" || !st.Started {
		return nil
	}
	nd, raw, down, err := gpfscmd.Network(ctx, h)
	if err != nil {
		return err
	}
	evidence["mmdiag --network"] = raw
	if down != "" {
		return nil
	}
	if peers := gpfscmd.TCPPeers(nd); len(peers) > 0 {
		return fmt.Errorf("`%s` printed nothing on %s although VERBS RDMA is started and mmdiag --network shows TCP connections to %d peer(s) (%s): prova cannot tell from empty output which of them use RDMA, so it does not report TCP fallback; run `prova collect -i INVENTORY --limit %s` and attach the bundle to a bug report (docs/support.md)",
			cr.Command, h.Name(), len(peers), strings.Join(firstN(peers, 5), ", "), h.Name())
	}
	return nil
}

func stringMap(m map[string]string) cty.Value {
	if len(m) == 0 {
		return cty.MapValEmpty(cty.String)
	}
	vs := make(map[string]cty.Value, len(m))
	for k, v := range m {
		vs[k] = cty.StringVal(v)
	}
	return cty.MapVal(vs)
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(s[:n:n], "...")
	}
	return s
}

var (
	_ module.Module    = (*Conn)(nil)
	_ module.Describer = (*Conn)(nil)
)
