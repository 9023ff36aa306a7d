package gpfsrestart

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

type args struct {
	Mode     string   `cty:"mode"`
	Nodes    []string `cty:"nodes"`
	MaxWait  string   `cty:"max_wait"`
	Interval string   `cty:"interval"`
	Quorum   []string `cty:"quorum_nodes"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Restart) NewArgs() any { return new(args) }

// target is what a restart works on: nodes by daemon name, in order.
type target struct {
	nodes  []string
	quorum map[string]bool
	all    []string // every cluster node
}

func resolve(ctx context.Context, h module.Host, a args) (target, error) {
	cl, _, err := gpfscmd.Cluster(ctx, h)
	if err != nil {
		return target{}, err
	}
	t := target{quorum: map[string]bool{}}
	for _, n := range cl.Nodes {
		t.all = append(t.all, n.DaemonName)
		if a.Quorum == nil && n.Quorum {
			t.quorum[n.DaemonName] = true
		}
	}
	for _, q := range a.Quorum {
		n, ok := gpfscmd.FindNode(cl, q)
		if !ok {
			return t, fmt.Errorf("quorum node %q is not in the cluster (mmlscluster on %s lists %s)", q, h.Name(), strings.Join(t.all, ", "))
		}
		t.quorum[n.DaemonName] = true
	}
	var unknown []string
	for _, name := range a.Nodes {
		n, ok := gpfscmd.FindNode(cl, name)
		if !ok {
			unknown = append(unknown, name)
			continue
		}
		if !slices.Contains(t.nodes, n.DaemonName) {
			t.nodes = append(t.nodes, n.DaemonName)
		}
	}
	if len(unknown) > 0 {
		return t, fmt.Errorf("not GPFS nodes: %s (mmlscluster on %s lists %s); nothing was restarted", strings.Join(unknown, ", "), h.Name(), strings.Join(t.all, ", "))
	}
	// Non-quorum nodes first, each group in the order given.
	slices.SortStableFunc(t.nodes, func(x, y string) int {
		switch {
		case t.quorum[x] == t.quorum[y]:
			return 0
		case t.quorum[x]:
			return 1
		}
		return -1
	})
	return t, nil
}

// Plan resolves the nodes through mmlscluster (read-only) and says what
// would restart; an empty list is no change.
func (*Restart) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	var a args
	if err := module.Decode(req.Args, &a); err != nil {
		return module.PlanResponse{}, err
	}
	if len(a.Nodes) == 0 {
		return module.PlanResponse{Action: module.NoOp, Summary: "nothing to restart"}, nil
	}
	t, err := resolve(ctx, req.Host, a)
	if err != nil {
		return module.PlanResponse{}, err
	}
	return module.PlanResponse{Action: module.Change, Summary: describe(a.Mode, t), Changes: changes(a.Mode, t)}, nil
}

func describe(mode string, t target) string {
	if mode == ModeCluster {
		return "cluster restart (mmshutdown -a, mmstartup -a) of all " + fmt.Sprint(len(t.all)) + " nodes"
	}
	var q []string
	for _, n := range t.nodes {
		if t.quorum[n] {
			q = append(q, n)
		}
	}
	s := "rolling restart, one node at a time: " + strings.Join(t.nodes, ", ")
	if len(q) > 0 {
		s += " (quorum nodes last: " + strings.Join(q, ", ") + ")"
	}
	return s
}

func changes(mode string, t target) []module.AttrChange {
	nodes := t.nodes
	if mode == ModeCluster {
		nodes = t.all
	}
	out := make([]module.AttrChange, len(nodes))
	for i, n := range nodes {
		out[i] = module.AttrChange{Name: n, From: "running", To: "restarted"}
	}
	return out
}

// Apply restarts the nodes and waits for them.
func (*Restart) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: outputs(nil, nil)}
	var a args
	if err := module.Decode(req.Args, &a); err != nil {
		return resp, err
	}
	if len(a.Nodes) == 0 {
		resp.Message = "nothing to restart"
		return resp, nil
	}
	maxWait, err1 := time.ParseDuration(a.MaxWait)
	interval, err2 := time.ParseDuration(a.Interval)
	if err1 != nil || err2 != nil || maxWait <= 0 || interval <= 0 {
		return resp, fmt.Errorf("gpfs_restart: bad max_wait %q or interval %q", a.MaxWait, a.Interval)
	}
	t, err := resolve(ctx, req.Host, a)
	if err != nil {
		return resp, err
	}
	r := &run{h: req.Host, maxWait: maxWait, interval: interval, progress: req.Progress, states: map[string]string{}, evidence: map[string]string{}}
	if a.Mode == ModeCluster {
		err = r.cluster(ctx, t)
	} else {
		err = r.rolling(ctx, t)
	}
	resp.Outputs = outputs(r.restarted, r.states)
	resp.Evidence = r.evidence
	resp.Changed = len(r.restarted) > 0 || r.touched
	if err != nil {
		if ctx.Err() != nil {
			return resp, err
		}
		resp.Failed, resp.Message = true, err.Error()
		return resp, nil
	}
	resp.Message = "restarted and active: " + strings.Join(r.restarted, ", ")
	for _, n := range r.restarted {
		resp.Checks = append(resp.Checks, module.Check{Name: "GPFS active on " + n + " after restart", Measured: r.states[n], Threshold: "active", Verdict: "pass"})
	}
	return resp, nil
}

func outputs(restarted []string, states map[string]string) cty.Value {
	list := cty.ListValEmpty(cty.String)
	if len(restarted) > 0 {
		vs := make([]cty.Value, len(restarted))
		for i, n := range restarted {
			vs[i] = cty.StringVal(n)
		}
		list = cty.ListVal(vs)
	}
	m := cty.MapValEmpty(cty.String)
	if len(states) > 0 {
		vs := map[string]cty.Value{}
		for k, v := range states {
			vs[k] = cty.StringVal(v)
		}
		m = cty.MapVal(vs)
	}
	return cty.ObjectVal(map[string]cty.Value{"restarted": list, "states": m})
}
