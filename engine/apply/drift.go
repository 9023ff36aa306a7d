package apply

import (
	"context"
	"fmt"
	"reflect"
	"sort"

	"github.com/provadev/prova/engine/event"
)

// checkDrift re-plans with the same program and compares with the saved
// plan. Any difference in the set of planned hosts, their actions or their
// changes is drift.
func (r *Runner) checkDrift(ctx context.Context) error {
	re := New(r.prog, r.scope, r.inv, Options{Mode: ModePlan, Forks: r.opts.Forks, Host: r.opts.Host, Become: r.opts.Become,
		Tags: r.opts.Tags, SkipTags: r.opts.SkipTags, AllowDestructive: r.opts.AllowDestructive})
	out, err := re.Run(ctx)
	if err != nil {
		return err
	}
	key := func(p event.PlannedHost) string { return p.Step + " on " + p.Host }
	want := map[string]event.PlannedHost{}
	for _, p := range r.opts.Expect {
		want[key(p)] = p
	}
	got := map[string]event.PlannedHost{}
	for _, p := range out.Planned {
		if r.opts.Redact != nil {
			p = RedactPlanned(p, r.opts.Redact)
		}
		got[key(p)] = p
	}
	var drift []string
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			drift = append(drift, fmt.Sprintf("%s: planned %q, now not planned", k, w.Action))
		case g.Action != w.Action:
			drift = append(drift, fmt.Sprintf("%s: planned %q, now %q (%s)", k, w.Action, g.Action, g.Summary))
		case !reflect.DeepEqual(g.Changes, w.Changes):
			drift = append(drift, fmt.Sprintf("%s: planned %s, now %s", k, changesText(w.Changes), changesText(g.Changes)))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			drift = append(drift, fmt.Sprintf("%s: not in the saved plan, now %q", k, g.Action))
		}
	}
	if len(drift) == 0 {
		return nil
	}
	sort.Strings(drift)
	return &DriftError{Drifted: drift}
}

func changesText(cs []event.Change) string {
	if len(cs) == 0 {
		return "no attribute changes"
	}
	s := ""
	for i, c := range cs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s: %s -> %s", c.Name, c.From, c.To)
	}
	return s
}

// RedactPlanned applies redact to every text of a planned host.
func RedactPlanned(p event.PlannedHost, redact func(string) string) event.PlannedHost {
	p.Summary = redact(p.Summary)
	if len(p.Changes) > 0 {
		cs := make([]event.Change, len(p.Changes))
		for i, c := range p.Changes {
			cs[i] = event.Change{Name: redact(c.Name), From: redact(c.From), To: redact(c.To)}
		}
		p.Changes = cs
	}
	return p
}
