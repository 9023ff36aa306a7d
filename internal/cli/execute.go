package cli

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/ui"
)

// execution is one plan or apply run of a loaded runbook.
type execution struct {
	mode    apply.Mode
	l       *loaded
	f       *runFlags
	expect  []event.PlannedHost
	outcome *apply.Outcome
	record  string // run record directory (apply)
	// baseline, when set, is the earlier run every measured value is
	// compared with after the run.
	baseline *record.Record
}

// observer builds the console or JSON observer on stdout.
func (a *app) observer(l *loaded, f *runFlags) (event.Observer, func() error, error) {
	if f.jsonOutput {
		f.json = true
	}
	if f.json {
		j := ui.NewJSON(a.stdout, l.redact).WithOutput(f.jsonOutput)
		return j, j.Err, nil
	}
	c := ui.NewConsole(a.stdout, ui.Options{Color: a.color, Env: a.env, IsTerminal: isTerminal(a.stdout),
		Verbose: f.verbose, Redact: l.redact, Sources: l.sources})
	if _, err := ui.UseColor(a.color, a.env, false); err != nil {
		return nil, nil, err
	}
	return c, c.Close, nil
}

func (a *app) execute(ctx context.Context, x *execution) error {
	obs, closeObs, err := a.observer(x.l, x.f)
	if err != nil {
		return err
	}
	runID := record.NewRunID(time.Now())
	observers := event.Multi{obs}
	var rec *record.Writer
	var halt atomic.Pointer[string]
	// An apply's record is created while the connections open (see
	// startRecord); the transport's events wait at the gate for it.
	var recStart <-chan recordStart
	if x.mode == apply.ModeApply {
		recStart = startRecord(x.f.recordDir, record.Meta{
			RunID: runID, Mode: string(x.mode), Runbook: x.l.rb.Path, RunbookHash: x.l.rb.Hash,
			Inventory: inventoryName(x.f), InventoryHash: x.l.inv.Hash, InventorySources: inventorySources(x.l.inv), ProvaVersion: version(),
			Started: time.Now(), Vars: a.recordVars(x.l), Hosts: x.l.inv.Names(),
			Baseline: x.f.baseline,
		}, x.l.redact)
	}
	recorded := false
	// haveRecord waits for the record: before the first change, the
	// evidence must have somewhere to go. On an error the run does not
	// start; the record's errors come first, as when it was made first.
	haveRecord := func() error {
		if recStart == nil || recorded {
			return nil
		}
		recorded = true
		r := <-recStart
		if r.room != nil {
			fmt.Fprintf(a.stderr, "Error: %v\nNothing was changed: prova does not run without a place to keep the evidence.\n", r.room)
			_ = closeObs()
			return errSilent{r.room}
		}
		if r.err != nil {
			return fmt.Errorf("create run record: %w", r.err)
		}
		rec = r.rec
		observers = append(observers, rec)
		x.record = rec.Dir()
		rec.OnFail(func(err error) {
			reason := "the run record cannot be written: " + err.Error()
			if halt.CompareAndSwap(nil, &reason) {
				fmt.Fprintf(a.stderr, "Error: %s\nStopping: the host-steps in flight finish, no further change is made.\n", x.l.redact.String(reason))
			}
		})
		return nil
	}
	// failed returns err after the record's own error, if it has one.
	failed := func(err error) error {
		if rerr := haveRecord(); rerr != nil {
			return rerr
		}
		return err
	}
	g := newGate()
	defer g.open(nil)
	tr, err := a.newTransport(x.l.inv, x.f, g, a.becomePassword(x.l))
	if err != nil {
		return failed(err)
	}
	closeTransport := sync.OnceValue(tr.Close) // after the run (below), or on the way out; a second call waits for the first
	defer closeTransport()
	strategy := x.f.strategy
	if strategy == "" {
		strategy = x.l.rb.Strategy
	}
	if strategy != "" && strategy != apply.Linear && strategy != apply.Free {
		return failed(fmt.Errorf("--strategy %q: want linear or free", strategy))
	}
	allow, err := a.allowDestructive(x.l, x.f)
	if err != nil {
		return failed(err)
	}
	timeout, timeoutFrom, err := stepTimeout(x.f.stepTimeout, x.l.rb.StepTimeout)
	if err != nil {
		return failed(err)
	}
	var lock apply.Lock
	if x.mode == apply.ModeApply {
		if lock, err = a.applyLock(x, tr, runID, g); err != nil {
			if rerr := haveRecord(); rerr != nil {
				return rerr
			}
			_ = rec.Close("refused")
			return err
		}
	}
	// The connections open while the run starts, the lock's host first.
	var lockHost module.Host
	if ol, ok := lock.(*optionalLock); ok {
		lockHost = ol.lock.Host
	}
	stopWarm := warm(ctx, lockHost, x.l.inv.Names(), x.f.forks, tr.Host)
	defer func() {
		g.open(nil) // a dial's warning waiting at the gate must not hold up stopWarm
		stopWarm()
	}()
	if err := haveRecord(); err != nil {
		return err
	}
	g.open(observers)
	runner := apply.New(x.l.prog, x.l.scope, x.l.inv, apply.Options{
		AllowDestructive: allow,
		Lock:             lock,
		StepTimeout:      timeout, StepTimeoutFrom: timeoutFrom,
		Strategy: strategy,
		Mode:     x.mode, RunID: runID, Forks: x.f.forks, Host: tr.Host, Become: tr.Become,
		Tags: x.f.tags, SkipTags: x.f.skipTags, Observer: observers, Expect: x.expect, Redact: x.l.redact.String,
		Halt: func() string {
			if r := halt.Load(); r != nil {
				return *r
			}
			return ""
		},
	})
	out, err := runner.Run(ctx)
	if rec != nil {
		reclaim() // before the record's Close allocates (reclaim.go)
	}
	// No host is used after the run (the lock is released in it): the
	// connections close while the record is written; the deferred call
	// waits for it.
	go func() {
		g.open(nil)
		stopWarm()
		_ = closeTransport()
	}()
	var drift *apply.DriftError
	if errors.As(err, &drift) {
		fmt.Fprintln(a.stderr, "Error: the saved plan no longer matches the hosts; nothing was applied.")
		for _, d := range drift.Drifted {
			fmt.Fprintf(a.stderr, "  drifted: %s\n", x.l.redact.String(d))
		}
		if rec != nil {
			_ = rec.Close("refused")
		}
		_ = closeObs()
		return errSilent{err}
	}
	if err != nil {
		return err
	}
	x.outcome = out
	if len(out.Diagnostics) > 0 {
		a.printDiags(x.l.sources, out.Diagnostics)
	}
	if halt.Load() != nil {
		out.Failed = true // the run stopped because its evidence could not be kept
	}
	if rec != nil {
		status := "ok"
		switch {
		case out.Interrupted:
			status = "interrupted"
		case out.Failed:
			status = "failed"
		}
		if err := rec.Close(status); err != nil {
			fmt.Fprintf(a.stderr, "Error: write run record: %v\n", err)
			out.Failed = true // evidence lost is never a success
		}
		if !x.f.json {
			fmt.Fprintf(a.stdout, "Run record: %s\n", rec.Dir())
		}
		if x.baseline != nil && !out.Interrupted {
			failed, err := a.compareBaseline(rec.Dir(), x.baseline, x.f.json)
			if err != nil {
				fmt.Fprintf(a.stderr, "Error: compare with the baseline: %v\n", err)
				out.Failed = true
			} else if failed {
				out.Failed = true
			}
		}
	}
	if rec != nil && !out.Interrupted && halt.Load() == nil {
		a.prune(x)
	}
	if err := closeObs(); err != nil {
		return err
	}
	switch {
	case out.Interrupted:
		return errInterrupted
	case out.Failed:
		return errSilent{fmt.Errorf("%s failed", x.mode)}
	}
	return nil
}

// prune applies the retention setting (--keep-runs, else the runbook's
// keep_runs) after an apply; the run's baseline is kept.
func (a *app) prune(x *execution) {
	keep := x.f.keepRuns
	if keep == 0 {
		keep = x.l.rb.KeepRuns
	}
	if keep <= 0 {
		return
	}
	var protect []string
	if x.f.baseline != "" {
		protect = append(protect, x.f.baseline)
	}
	removed, err := record.Prune(x.f.recordDir, keep, protect...)
	if err != nil {
		fmt.Fprintf(a.stderr, "Warning: %v\n", err)
	}
	if len(removed) > 0 && !x.f.json {
		fmt.Fprintf(a.stdout, "Removed %d old run record(s), keeping the newest %d and their baselines.\n", len(removed), keep)
	}
}

// allowDestructive resolves --allow-destructive[=PATTERN] to the hosts on
// which destructive steps may run (nil: none).
func (a *app) allowDestructive(l *loaded, f *runFlags) (func(string) bool, error) {
	if f.allowDestructive == "" {
		return nil, nil
	}
	names, err := l.inv.SelectNames(f.allowDestructive)
	if err != nil {
		return nil, fmt.Errorf("--allow-destructive %q: %w", f.allowDestructive, err)
	}
	allowed := map[string]bool{}
	for _, n := range names {
		allowed[n] = true
	}
	return func(h string) bool { return allowed[h] }, nil
}

// recordVars returns the variable values for the run record, with
// sensitive ones replaced.
func (a *app) recordVars(l *loaded) map[string]any {
	out := map[string]any{}
	sens := map[string]bool{}
	for _, v := range l.rb.Variables {
		sens[v.Name] = v.Sensitive
	}
	for name, v := range l.vars.Values {
		if sens[name] {
			out[name] = "(sensitive value)"
			continue
		}
		out[name] = plainJSON(v)
	}
	return out
}

func plainJSON(v cty.Value) any {
	if !v.IsWhollyKnown() {
		return nil
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return nil
	}
	return jsonRaw(b)
}

type jsonRaw []byte

func (j jsonRaw) MarshalJSON() ([]byte, error) { return j, nil }

// becomePassword is the value of a variable named become_password, if the
// runbook declares one (it should be sensitive).
func (a *app) becomePassword(l *loaded) string {
	v, ok := l.vars.Values["become_password"]
	if !ok || v.IsNull() || !v.IsKnown() || v.Type() != cty.String {
		return ""
	}
	return v.AsString()
}

// stepTimeout is the run-wide bound on an attempt of a step that sets no
// timeout of its own: --step-timeout, else the runbook's step_timeout,
// else apply.DefaultStepTimeout. "--step-timeout 0" removes the bound.
func stepTimeout(flag string, runbook time.Duration) (time.Duration, string, error) {
	switch {
	case flag != "":
		d, err := time.ParseDuration(flag)
		if flag == "0" {
			d, err = 0, nil
		}
		if err != nil || d < 0 {
			return 0, "", fmt.Errorf(`--step-timeout %q: want a duration like "10m" or "1h30m", or 0 for no bound`, flag)
		}
		return d, "--step-timeout", nil
	case runbook > 0:
		return runbook, "the runbook's step_timeout", nil
	}
	return apply.DefaultStepTimeout, "the default step timeout; set step_timeout in the runbook or --step-timeout", nil
}
