package gpfsrestart

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
)

// run is one restart in progress.
type run struct {
	h                 module.Host
	maxWait, interval time.Duration
	progress          func(module.Progress)
	restarted         []string
	states            map[string]string
	evidence          map[string]string
	touched           bool // a shutdown ran
	start             time.Time
}

// rolling restarts t.nodes one by one.
func (r *run) rolling(ctx context.Context, t target) error {
	r.start = time.Now()
	for _, n := range t.nodes {
		if t.quorum[n] {
			if err := r.quorumUp(ctx, t, n); err != nil {
				return err
			}
		}
		r.report(fmt.Sprintf("restarting %s (%d of %d)", n, len(r.restarted)+1, len(t.nodes)))
		if err := r.admin(ctx, "mmshutdown", "-N", n); err != nil {
			return err
		}
		if err := r.admin(ctx, "mmstartup", "-N", n); err != nil {
			return err
		}
		if err := r.wait(ctx, []string{n}, "-N", n); err != nil {
			return err
		}
		r.restarted = append(r.restarted, n)
	}
	return nil
}

// quorumUp refuses to take quorum node n down while another quorum node is
// not active: that could lose quorum.
func (r *run) quorumUp(ctx context.Context, t target, n string) error {
	var others []string
	for _, q := range t.all {
		if t.quorum[q] && q != n {
			others = append(others, q)
		}
	}
	if len(others) == 0 {
		return nil
	}
	st, err := r.getstate(ctx, "-N", strings.Join(others, ","))
	if err != nil {
		return err
	}
	var down []string
	for _, q := range others {
		s, ok := st.Node(q)
		if !ok || s.State != gpfs.StateActive {
			state := "not listed"
			if ok {
				state = s.State
			}
			down = append(down, fmt.Sprintf("%s is %s", q, state))
		}
	}
	if len(down) > 0 {
		return fmt.Errorf("refusing to take quorum node %s down while another quorum node is not active (%s): quorum could be lost", n, strings.Join(down, ", "))
	}
	return nil
}

// cluster restarts every node at once and waits for all of them.
func (r *run) cluster(ctx context.Context, t target) error {
	r.start = time.Now()
	r.report("mmshutdown -a")
	if err := r.admin(ctx, "mmshutdown", "-a"); err != nil {
		return err
	}
	if err := r.admin(ctx, "mmstartup", "-a"); err != nil {
		return err
	}
	if err := r.wait(ctx, t.all, "-a"); err != nil {
		return err
	}
	r.restarted = append(r.restarted, t.all...)
	return nil
}

// admin runs mmshutdown or mmstartup; a failure names the host and what the
// command said.
func (r *run) admin(ctx context.Context, argv ...string) error {
	out, err := gpfscmd.Probe(ctx, r.h, gpfscmd.MM(argv...))
	if argv[0] == "mmshutdown" {
		r.touched = true
	}
	key := strings.Join(argv, " ")
	r.evidence[key] = out.Stdout + out.Stderr
	if err != nil {
		return err
	}
	res := gpfs.ParseCommandResult([]byte(out.Stdout + out.Stderr))
	if out.RC != 0 || res.Failed || len(res.Unreachable) > 0 {
		why := gpfscmd.LastLine(out)
		if len(res.Unreachable) > 0 {
			why = "unreachable: " + strings.Join(res.Unreachable, ", ")
		}
		return fmt.Errorf("%s on %s exited %d: %s", key, r.h.Name(), out.RC, why)
	}
	return nil
}

func (r *run) getstate(ctx context.Context, sel ...string) (*gpfs.NodeStates, error) {
	argv := append(append([]string{"mmgetstate"}, sel...), "-Y")
	out, err := gpfscmd.Run(ctx, r.h, "mmgetstate", gpfscmd.MM(argv...))
	if err != nil {
		return nil, err
	}
	st, err := gpfs.ParseMmgetstateY([]byte(out.Stdout))
	if err != nil {
		return nil, gpfscmd.ParseFailure(r.h, err)
	}
	return st, nil
}

// wait polls mmgetstate (sel: "-N node" or "-a") until every node in nodes
// is active, max_wait passes (an error naming the nodes not active) or ctx
// ends. A failing mmgetstate counts as not yet active.
func (r *run) wait(ctx context.Context, nodes []string, sel ...string) error {
	wctx, cancel := context.WithTimeout(ctx, r.maxWait)
	defer cancel()
	tick := time.NewTicker(r.interval)
	defer tick.Stop()
	for {
		st, err := r.getstate(wctx, sel...)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var notActive []string
		for _, n := range nodes {
			state, seen := r.states[n]
			if !seen {
				state = "unknown"
			}
			if st != nil { // a poll that failed keeps what the last one saw
				state = "not listed"
				if s, ok := st.Node(n); ok {
					state = s.State
				}
			}
			r.states[n] = state
			if state != gpfs.StateActive {
				notActive = append(notActive, n)
			}
		}
		if len(notActive) == 0 {
			return nil
		}
		r.report("waiting for " + strings.Join(notActive, ", ") + " to become active")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wctx.Done():
			return r.timedOut(notActive, err)
		case <-tick.C:
		}
	}
}

func (r *run) timedOut(notActive []string, lastErr error) error {
	sort.Strings(notActive)
	var s []string
	for _, n := range notActive {
		s = append(s, n+" is "+r.states[n])
	}
	msg := fmt.Sprintf("not active after %s: %s", r.maxWait, strings.Join(s, ", "))
	if lastErr != nil && !errors.Is(lastErr, context.DeadlineExceeded) { // not the poll max_wait cut short
		msg += " (last mmgetstate: " + lastErr.Error() + ")"
	}
	if len(r.restarted) > 0 {
		msg += "; restarted before: " + strings.Join(r.restarted, ", ")
	}
	return fmt.Errorf("%s", msg)
}

func (r *run) report(msg string) {
	if r.progress != nil {
		r.progress(module.Progress{Message: msg, Elapsed: time.Since(r.start).Seconds()})
	}
}
