package mmchconfig

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
)

type args struct {
	Attributes  map[string]string `cty:"attributes"`
	Nodes       *string           `cty:"nodes"`
	MaxFraction float64           `cty:"pagepool_max_fraction"`
	Immediate   bool              `cty:"immediate"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Mmchconfig) NewArgs() any { return new(args) }

func (a args) scope() []string {
	if a.Nodes == nil {
		return nil
	}
	return strings.Split(*a.Nodes, ",")
}

// PagepoolError is the refusal of a pagepool too large for the host.
type PagepoolError struct {
	Host      string
	Pagepool  string
	Bytes     uint64
	MemTotal  uint64
	MaxFactor float64
}

func (e *PagepoolError) Error() string {
	return fmt.Sprintf("refusing pagepool=%s: it is %.0f%% of %s's memory (MemTotal %s), more than pagepool_max_fraction %g allows (at most %s); nothing was changed",
		e.Pagepool, 100*float64(e.Bytes)/float64(e.MemTotal), e.Host, gpfscmd.FormatSize(e.MemTotal), e.MaxFactor,
		gpfscmd.FormatSize(uint64(math.Floor(float64(e.MemTotal)*e.MaxFactor))))
}

// checkPagepool refuses a pagepool larger than the allowed share of the
// host's memory. It reads /proc/meminfo only when pagepool is requested.
func checkPagepool(ctx context.Context, h module.Host, a args) error {
	for k, v := range a.Attributes {
		if !strings.EqualFold(k, "pagepool") || strings.EqualFold(v, "DEFAULT") {
			continue
		}
		want, err := gpfscmd.ParseSize(v)
		if err != nil {
			return fmt.Errorf("pagepool: %w", err)
		}
		mem, err := gpfscmd.MemTotal(ctx, h)
		if err != nil {
			return err
		}
		if float64(want) > float64(mem)*a.MaxFraction {
			return &PagepoolError{Host: h.Name(), Pagepool: v, Bytes: want, MemTotal: mem, MaxFactor: a.MaxFraction}
		}
	}
	return nil
}

// diff reads the configured values and returns the changes, sorted by
// attribute name.
func diff(ctx context.Context, h module.Host, a args) ([]module.AttrChange, error) {
	cfg, _, err := gpfscmd.Config(ctx, h)
	if err != nil {
		return nil, err
	}
	return changes(cfg, a), nil
}

func changes(cfg *gpfs.Config, a args) []module.AttrChange {
	names := make([]string, 0, len(a.Attributes))
	for k := range a.Attributes {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []module.AttrChange
	for _, k := range names {
		want := a.Attributes[k]
		cur, set, mixed := gpfscmd.ScopeValue(cfg, k, a.scope())
		switch {
		case mixed:
			cur = "(differs between " + strings.Join(a.scope(), ", ") + ")"
		case set && gpfscmd.SameValue(k, cur, want):
			continue
		case !set && strings.EqualFold(want, "DEFAULT"):
			continue
		case !set:
			d, ok := gpfscmd.Default(k)
			if ok && gpfscmd.SameValue(k, d, want) {
				continue
			}
			cur = "(unset)"
			if d != "" {
				cur = d + " (default)"
			}
		}
		out = append(out, module.AttrChange{Name: k, From: cur, To: want})
	}
	return out
}

func summary(ch []module.AttrChange) string {
	parts := make([]string, len(ch))
	for i, c := range ch {
		parts[i] = fmt.Sprintf("%s: %s -> %s", c.Name, c.From, c.To)
	}
	return strings.Join(parts, "; ")
}

// Plan checks pagepool against the host's memory and compares the
// requested values with the configured ones. Read-only.
func (*Mmchconfig) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	a, err := module.Args[args](req)
	if err != nil {
		return module.PlanResponse{}, err
	}
	if err := checkPagepool(ctx, req.Host, a); err != nil {
		return module.PlanResponse{}, err
	}
	ch, err := diff(ctx, req.Host, a)
	if err != nil {
		return module.PlanResponse{}, err
	}
	if len(ch) == 0 {
		return module.PlanResponse{Action: module.NoOp, Summary: "already configured: " + strings.Join(sortedKeys(a.Attributes), ", ")}, nil
	}
	return module.PlanResponse{Action: module.Change, Summary: summary(ch), Changes: ch}, nil
}

// Command returns the mmchconfig command line for changes: one
// "a=v,b=v" word (quoted as a whole: values may hold spaces), then -i and
// -N as requested.
func Command(ch []module.AttrChange, a args) string {
	kv := make([]string, len(ch))
	for i, c := range ch {
		kv[i] = c.Name + "=" + c.To
	}
	argv := []string{"mmchconfig", strings.Join(kv, ",")}
	if a.Immediate {
		argv = append(argv, "-i")
	}
	if a.Nodes != nil {
		argv = append(argv, "-N", *a.Nodes)
	}
	return gpfscmd.MM(argv...)
}

// Apply re-checks pagepool, then runs one mmchconfig with the attributes
// that differ (those the plan found when the engine planned just before).
func (*Mmchconfig) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: outputs(nil)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	if err := checkPagepool(ctx, req.Host, a); err != nil {
		var pe *PagepoolError
		if errors.As(err, &pe) {
			resp.Failed, resp.Message = true, pe.Error()
			resp.Checks = []module.Check{{Name: "pagepool fits in memory on " + req.Host.Name(), Measured: pe.Pagepool,
				Threshold: fmt.Sprintf("<= %g x MemTotal (%s)", pe.MaxFactor, gpfscmd.FormatSize(pe.MemTotal)), Verdict: "fail", Message: pe.Error()}}
			return resp, nil
		}
		return resp, err
	}
	var ch []module.AttrChange
	if p := req.Planned; p != nil {
		if p.Action == module.NoOp {
			resp.Message = p.Summary
			return resp, nil
		}
		ch = p.Changes
	} else {
		var err error
		if ch, err = diff(ctx, req.Host, a); err != nil {
			return resp, err
		}
	}
	if len(ch) == 0 {
		resp.Message = "already configured"
		return resp, nil
	}
	cmd := Command(ch, a)
	out, err := gpfscmd.Probe(ctx, req.Host, cmd)
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if err != nil {
		return resp, err
	}
	resp.Evidence = map[string]string{"mmchconfig": out.Stdout + out.Stderr}
	res := gpfs.ParseCommandResult([]byte(out.Stdout + out.Stderr))
	if out.RC != 0 {
		resp.Failed = true
		why := gpfscmd.LastLine(out)
		if len(res.Errors) > 0 {
			why = strings.Join(res.Errors, "; ")
		}
		resp.Message = fmt.Sprintf("mmchconfig on %s exited %d: %s", req.Host.Name(), out.RC, why)
		return resp, nil
	}
	resp.Changed = true
	resp.Outputs = outputs(ch)
	resp.Message = summary(ch)
	if len(res.Warnings) > 0 {
		resp.Message += " (" + strings.Join(res.Warnings, "; ") + ")"
	}
	return resp, nil
}

func outputs(ch []module.AttrChange) cty.Value {
	names := []cty.Value{}
	restart := false
	for _, c := range ch {
		names = append(names, cty.StringVal(c.Name))
		restart = restart || RestartRequired(c.Name)
	}
	list := cty.ListValEmpty(cty.String)
	if len(names) > 0 {
		list = cty.ListVal(names)
	}
	return cty.ObjectVal(map[string]cty.Value{"changed_attributes": list, "restart_required": cty.BoolVal(restart)})
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
