package apply

import (
	"context"
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// Outcome summarises a run.
type Outcome struct {
	Hosts       map[string]event.Tally
	Failed      bool
	Interrupted bool
	Changes     int
	// WouldFail counts, in plan mode, the planned hosts x steps apply would
	// certainly fail (would fail, error, unreachable).
	WouldFail int
	// Planned holds every planned host (plan mode), for plan --out.
	Planned []event.PlannedHost
	// Diagnostics are run-level errors (a meta-argument that could not be
	// evaluated, a pattern that matched nothing).
	Diagnostics hcl.Diagnostics
}

// Runner runs one program.
type Runner struct {
	prog  *program.Program
	scope *eval.Scope
	inv   Inventory
	opts  Options

	results *eval.Results
	hosts   *hostStates // whether each host is still in the run, its tally
	mu      sync.Mutex  // guards what follows, up to evalMu
	// dirty holds steps planned to change or unknown (plan mode);
	// ndirty is its length, read without mu.
	dirty   map[string]bool
	ndirty  atomic.Int64
	planned []event.PlannedHost
	// firstChange is the first step, in run order, that a module that may
	// change hosts planned to change (or could not say) on some host, nil
	// when none (plan mode): read-only steps after it are not run for real,
	// since what they would read may be what the change changes.
	firstChange *program.Step
	// order is each step's position in the run.
	order map[*program.Step]int

	// evals holds each step's *stepEval by step name, made by stepEval
	// under evalMu and read without it.
	evalMu sync.Mutex
	evals  sync.Map

	lockMu  sync.Mutex
	held    HeldLock
	lockErr error

	beats beatClocks // the heartbeats of the attempts running

	workers forkWorkers // the fan-outs' goroutines, kept from step to step
}

// New prepares a run. The scope must have its locals set.
func New(prog *program.Program, scope *eval.Scope, inv Inventory, opts Options) *Runner {
	if opts.Forks <= 0 {
		opts.Forks = DefaultForks
	}
	if opts.Observer == nil {
		opts.Observer = event.Func(func(event.Event) {})
	}
	r := &Runner{prog: prog, scope: scope, inv: inv, opts: opts,
		results: eval.NewResults(), hosts: newHostStates(inv.Names()), dirty: map[string]bool{}}
	r.order = make(map[*program.Step]int, len(prog.Steps))
	for i, s := range prog.Steps {
		r.order[s] = i
	}
	return r
}

// Run executes the program. The returned error is non-nil only for a drift
// refusal; step failures are in the Outcome.
func (r *Runner) Run(ctx context.Context) (*Outcome, error) {
	start := time.Now()
	obs := r.opts.Observer
	stepIDs := make([]string, len(r.prog.Steps))
	for i, s := range r.prog.Steps {
		stepIDs[i] = s.ID()
	}
	if r.opts.Expect != nil {
		if err := r.checkDrift(ctx); err != nil {
			return nil, err
		}
	}
	obs.Observe(event.RunStarted{RunID: r.opts.RunID, Mode: string(r.opts.Mode), Runbook: r.prog.Runbook.Path,
		Hosts: r.inv.Names(), Steps: stepIDs, Time: start, FailRule: FailRule()})

	defer r.releaseLock()
	defer r.workers.stop()
	out := &Outcome{}
	var halfDone []string
	var abort stop
	var steps []*program.Step
	for _, s := range r.prog.Steps {
		if r.selectedByTags(s) {
			steps = append(steps, s)
		}
	}
	for i := 0; i < len(steps); {
		if ctx.Err() != nil {
			abort = interrupted
			break
		}
		if st := r.halted(); st.stops() {
			abort = st
			break
		}
		// Plan is always linear: whether a read-only step may run for real
		// depends on every earlier step's plan on every host.
		if r.opts.Strategy == Free && r.opts.Mode == ModeApply && !r.barrier(steps[i]) {
			j := i
			for j < len(steps) && !r.barrier(steps[j]) {
				j++
			}
			st, half, diags := r.runSegment(ctx, steps[i:j])
			out.Diagnostics = append(out.Diagnostics, diags...)
			halfDone = append(halfDone, half...)
			i = j
			st = r.lockStop(st)
			if st.stops() {
				abort = st
				break
			}
		} else {
			s := steps[i]
			st, half, diags := r.runStep(ctx, s)
			out.Diagnostics = append(out.Diagnostics, diags...)
			if half {
				halfDone = append(halfDone, s.ID())
			}
			st = r.lockStop(st)
			i++
			if st.stops() {
				abort = st
				break
			}
		}
		if r.countActive() == 0 {
			abort = stop{cause: event.AbortNoHosts, reason: "no hosts left"}
			break
		}
	}
	if ctx.Err() != nil {
		abort = interrupted
		out.Interrupted = true
	}
	if abort.stops() && (abort.cause != event.AbortNoHosts || r.opts.Mode == ModeApply) {
		obs.Observe(event.Aborted{Cause: abort.cause, Reason: abort.reason, HalfDone: halfDone})
	}
	out.Hosts = r.hosts.tallies()
	for _, t := range out.Hosts {
		if t.Failed > 0 || t.Unreachable > 0 {
			out.Failed = true
		}
	}
	if out.Diagnostics.HasErrors() || abort.failed() {
		out.Failed = true
	}
	for _, p := range r.planned {
		switch {
		case p.Action == event.PlanChange:
			out.Changes++
		case p.Action.Certain():
			out.WouldFail++
		}
	}
	out.Planned = r.planned
	r.releaseLock()
	obs.Observe(event.RunFinished{RunID: r.opts.RunID, Mode: string(r.opts.Mode), Hosts: out.Hosts,
		Failed: out.Failed, Changes: out.Changes, WouldFail: out.WouldFail, Duration: time.Since(start), Time: time.Now()})
	return out, nil
}

func (r *Runner) countActive() int {
	return r.hosts.activeCount()
}

func (r *Runner) selectedByTags(s *program.Step) bool {
	if len(r.opts.Tags) == 0 && len(r.opts.SkipTags) == 0 {
		return true
	}
	m, _ := program.EvalMeta(s, eval.WithEach(r.scope.Base(), s.Each), true)
	has := func(list []string) bool {
		for _, t := range m.Tags {
			for _, want := range list {
				if t == want {
					return true
				}
			}
		}
		return false
	}
	if has(r.opts.SkipTags) {
		return false
	}
	return len(r.opts.Tags) == 0 || has(r.opts.Tags)
}

// stepHosts resolves a step's hosts among the hosts still in the run.
func (r *Runner) stepHosts(s *program.Step, m program.Meta) ([]string, hcl.Diagnostics) {
	var names []string
	switch {
	case m.HostsList != nil:
		known := map[string]bool{}
		for _, n := range r.inv.Names() {
			known[n] = true
		}
		for _, n := range m.HostsList {
			if !known[n] {
				return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown host",
					Detail: fmt.Sprintf("The host %q is not in the inventory.", n), Subject: s.Hosts.Range().Ptr()}}
			}
			names = append(names, n)
		}
	case m.HostsPattern != "":
		sel, err := r.inv.SelectNames(m.HostsPattern)
		if err != nil {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid hosts pattern",
				Detail: err.Error(), Subject: s.Hosts.Range().Ptr()}}
		}
		names = sel
	default:
		names = r.inv.Names()
	}
	out := names[:0:0]
	for _, n := range names {
		if r.hosts.isActive(n) {
			out = append(out, n)
		}
	}
	return out, nil
}

// batches splits hosts by serial.
func batches(hosts []string, m program.Meta) [][]string {
	size := len(hosts)
	if m.Serial > 0 {
		size = m.Serial
	} else if m.SerialPercent > 0 {
		size = int(math.Ceil(float64(len(hosts)) * m.SerialPercent / 100))
	}
	if size <= 0 {
		size = 1
	}
	var out [][]string
	for len(hosts) > 0 {
		n := min(size, len(hosts))
		out = append(out, hosts[:n])
		hosts = hosts[n:]
	}
	return out
}

// runStep runs one step on its hosts. It returns why the run must stop,
// if it must, and whether the step was left half-done.
func (r *Runner) runStep(ctx context.Context, s *program.Step) (stop, bool, hcl.Diagnostics) {
	obs := r.opts.Observer
	m, diags := program.EvalMeta(s, eval.WithEach(r.scope.Base(), s.Each), false)
	if diags.HasErrors() {
		return invalidStep(s, "arguments"), false, diags
	}
	hosts, d := r.stepHosts(s, m)
	diags = append(diags, d...)
	if d.HasErrors() {
		return invalidStep(s, "hosts"), false, diags
	}
	if len(hosts) == 0 {
		return stop{}, false, diags
	}
	if m.RunOnce {
		hosts = hosts[:1]
	}
	start := time.Now()
	failedCount := 0
	total := len(hosts)
	done := 0
	for bi, batch := range batches(hosts, m) {
		if st := r.halted(); st.stops() {
			return st, bi > 0, diags
		}
		bn := 0
		if m.Serial > 0 || m.SerialPercent > 0 {
			bn = bi + 1
		}
		obs.Observe(event.StepStarted{Step: s.ID(), Module: s.Module.ID(), Name: s.Name, Hosts: batch, Batch: bn})
		if cm, ok := s.Module.(module.ClusterModule); ok && r.opts.Mode == ModeApply {
			for _, o := range r.runCluster(ctx, s, m, cm, batch) {
				done++
				if o.status == event.Failed || o.status == event.Unreachable {
					failedCount++
				}
			}
		} else {
			var mu sync.Mutex
			se := r.stepEval(s) // once per step, not under a lock per host-step
			r.workers.fanOut(ctx, batch, r.opts.Forks, func(ctx context.Context, h string) {
				if r.halted().stops() {
					return
				}
				st := r.runHost(ctx, se, &m, h)
				mu.Lock()
				defer mu.Unlock()
				done++
				if st == event.Failed || st == event.Unreachable {
					failedCount++
				}
			})
		}
		if ctx.Err() != nil {
			return interrupted, true, diags
		}
		if st := r.halted(); st.stops() {
			return st, true, diags
		}
		if st := maxFail(s, m, failedCount, total); st.stops() {
			return st, done < total, diags
		}
	}
	if m.RunOnce {
		r.results.Share(s.Name, hosts[0])
	}
	obs.Observe(event.StepFinished{Step: s.ID(), Duration: time.Since(start)})
	return stop{}, false, diags
}

// halted is the stop Options.Halt asks for, if any.
func (r *Runner) halted() stop {
	if r.opts.Halt == nil {
		return stop{}
	}
	if reason := r.opts.Halt(); reason != "" {
		return stop{cause: event.AbortHalted, reason: reason}
	}
	return stop{}
}

// drop removes a host from the rest of the run.
func (r *Runner) drop(s *program.Step, host, reason string) {
	if r.hosts.deactivate(host) {
		r.opts.Observer.Observe(event.HostDropped{Step: s.ID(), Host: host, Reason: reason})
	}
}

func (r *Runner) count(host string, st event.Status) {
	r.hosts.count(host, st)
}
