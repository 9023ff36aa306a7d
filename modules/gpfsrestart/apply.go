package gpfsrestart

import (
	"context"
	"errors"
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
	Batch    string   `cty:"batch"`
	Estimate string   `cty:"restart_estimate"`
	Marker   string   `cty:"marker"`
	Finish   string   `cty:"finish_timeout"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Restart) NewArgs() any { return new(args) }

// target is what a restart works on.
type target struct {
	topo  *topology
	nodes []string   // to restart, daemon names
	waves [][]string // rolling mode
	left  inflight   // nodes an interrupted run left down
}

func resolve(ctx context.Context, h module.Host, a args) (target, error) {
	cl, topo, err := readTopology(ctx, h, a.Quorum)
	if err != nil {
		return target{}, err
	}
	t := target{topo: topo}
	if t.left, err = readMarker(ctx, h, a.Marker); err != nil {
		return t, err
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
		return t, fmt.Errorf("not GPFS nodes: %s (mmlscluster on %s lists %s); nothing was restarted", strings.Join(unknown, ", "), h.Name(), strings.Join(topo.all, ", "))
	}
	if a.Mode == ModeCluster {
		return t, nil
	}
	plain := 0
	for _, n := range t.nodes {
		if !topo.special(n) {
			plain++
		}
	}
	size, err := batchSize(a.Batch, plain)
	if err != nil {
		return t, err
	}
	t.waves, err = planWaves(topo, t.nodes, size)
	return t, err
}

// Plan reads the cluster (mmlscluster, mmlsnsd, mmlsconfig, the restart
// marker; all read-only) and says which waves would restart, with an
// estimated duration; an empty list is no change.
func (*Restart) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	a, err := module.Args[args](req)
	if err != nil {
		return module.PlanResponse{}, err
	}
	t, err := resolve(ctx, req.Host, a)
	if err != nil {
		return module.PlanResponse{}, err
	}
	if len(t.nodes) == 0 && len(t.left.Nodes) == 0 {
		return module.PlanResponse{Action: module.NoOp, Summary: "nothing to restart"}, nil
	}
	est, _ := time.ParseDuration(a.Estimate)
	return module.PlanResponse{Action: module.Change, Summary: describe(a.Mode, t, est), Changes: changes(a.Mode, t)}, nil
}

func describe(mode string, t target, est time.Duration) string {
	s := ""
	if len(t.left.Nodes) > 0 {
		s = "first start " + strings.Join(t.left.Nodes, ", ") + " (left down by an interrupted restart); "
	}
	if len(t.nodes) == 0 {
		return strings.TrimSuffix(s, "; ")
	}
	if mode == ModeCluster {
		return s + fmt.Sprintf("cluster restart (mmshutdown -a, mmstartup -a) of all %d nodes, estimated %s", len(t.topo.all), est)
	}
	parts := make([]string, len(t.waves))
	for i, w := range t.waves {
		parts[i] = fmt.Sprintf("wave %d: %s", i+1, strings.Join(w, ", "))
	}
	return s + fmt.Sprintf("rolling restart of %d nodes in %d waves, estimated %s (%s per wave): %s",
		len(t.nodes), len(t.waves), est*time.Duration(len(t.waves)), est, strings.Join(parts, "; "))
}

func changes(mode string, t target) []module.AttrChange {
	var out []module.AttrChange
	for _, n := range t.left.Nodes {
		out = append(out, module.AttrChange{Name: n, From: "left down", To: "started"})
	}
	if mode == ModeCluster {
		if len(t.nodes) > 0 {
			for _, n := range t.topo.all {
				out = append(out, module.AttrChange{Name: n, From: "running", To: "restarted"})
			}
		}
		return out
	}
	for i, w := range t.waves {
		for _, n := range w {
			out = append(out, module.AttrChange{Name: n, From: "running", To: fmt.Sprintf("restarted (wave %d)", i+1)})
		}
	}
	return out
}

// Apply starts what an interrupted run left down, checks the cluster is
// healthy, then restarts the waves and waits for each.
func (*Restart) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: outputs(nil, nil, nil, nil)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	maxWait, err1 := time.ParseDuration(a.MaxWait)
	interval, err2 := time.ParseDuration(a.Interval)
	finish, err3 := time.ParseDuration(a.Finish)
	if err1 != nil || err2 != nil || err3 != nil || maxWait <= 0 || interval <= 0 || finish <= 0 {
		return resp, fmt.Errorf("gpfs_restart: bad max_wait %q, interval %q or finish_timeout %q", a.MaxWait, a.Interval, a.Finish)
	}
	t, err := resolve(ctx, req.Host, a)
	if err != nil {
		return resp, err
	}
	if len(t.nodes) == 0 && len(t.left.Nodes) == 0 {
		resp.Message = "nothing to restart"
		return resp, nil
	}
	r := &run{h: req.Host, maxWait: maxWait, interval: interval, finish: finish, marker: a.Marker, progress: req.Progress,
		states: map[string]string{}, evidence: t.topo.evidence, start: time.Now()}
	err = r.recover(ctx, t.left)
	if err == nil {
		// The nodes just brought back were restarted: their new daemon has
		// the configured values.
		t.nodes = slices.DeleteFunc(t.nodes, func(n string) bool { return slices.Contains(r.recovered, n) })
		for i := range t.waves {
			t.waves[i] = slices.DeleteFunc(t.waves[i], func(n string) bool { return slices.Contains(r.recovered, n) })
		}
		t.waves = slices.DeleteFunc(t.waves, func(w []string) bool { return len(w) == 0 })
	}
	if err == nil && len(t.nodes) > 0 {
		err = r.healthy(ctx, t.topo)
		if err != nil {
			r.pending = append(r.pending, t.nodes...)
		}
	}
	if err == nil && len(t.nodes) > 0 {
		if a.Mode == ModeCluster {
			err = r.cluster(ctx, t.topo)
		} else {
			err = r.rolling(ctx, t.topo, t.waves)
		}
	}
	done := append(slices.Clone(r.recovered), r.restarted...)
	resp.Outputs = outputs(done, r.states, r.pending, t.waves)
	resp.Evidence = r.evidence
	resp.Changed = len(done) > 0 || r.touched
	for _, n := range done {
		resp.Checks = append(resp.Checks, module.Check{Name: "GPFS active on " + n + " after restart", Measured: r.states[n], Threshold: "active", Verdict: "pass"})
	}
	var intr *interrupted
	switch {
	case errors.As(err, &intr):
		resp.Failed, resp.Message = true, err.Error()+pendingText(r.pending)
		return resp, nil
	case err != nil && ctx.Err() != nil:
		resp.Failed, resp.Message = true, "interrupted: "+err.Error()+pendingText(r.pending)
		return resp, nil
	case err != nil:
		resp.Failed, resp.Message = true, err.Error()+pendingText(r.pending)
		return resp, nil
	}
	resp.Message = "restarted and active: " + strings.Join(done, ", ")
	if len(r.recovered) > 0 {
		resp.Message += " (" + strings.Join(r.recovered, ", ") + " left down by an interrupted run, started first)"
	}
	return resp, nil
}

func pendingText(p []string) string {
	if len(p) == 0 {
		return ""
	}
	return "; not restarted (still pending): " + strings.Join(p, ", ")
}

func outputs(restarted []string, states map[string]string, pending []string, waves [][]string) cty.Value {
	list := func(ss []string) cty.Value {
		if len(ss) == 0 {
			return cty.ListValEmpty(cty.String)
		}
		vs := make([]cty.Value, len(ss))
		for i, n := range ss {
			vs[i] = cty.StringVal(n)
		}
		return cty.ListVal(vs)
	}
	m := cty.MapValEmpty(cty.String)
	if len(states) > 0 {
		vs := map[string]cty.Value{}
		for k, v := range states {
			vs[k] = cty.StringVal(v)
		}
		m = cty.MapVal(vs)
	}
	wl := cty.ListValEmpty(cty.List(cty.String))
	if len(waves) > 0 {
		vs := make([]cty.Value, len(waves))
		for i, w := range waves {
			vs[i] = list(w)
		}
		wl = cty.ListVal(vs)
	}
	return cty.ObjectVal(map[string]cty.Value{"restarted": list(restarted), "states": m, "pending": list(pending), "waves": wl})
}
