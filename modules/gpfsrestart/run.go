package gpfsrestart

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	finish            time.Duration // bound on bringing the wave in flight back after an interrupt
	marker            string
	progress          func(module.Progress)
	restarted         []string
	recovered         []string // left down by an earlier run, started first
	pending           []string // planned but not restarted
	states            map[string]string
	evidence          map[string]string
	touched           bool // a shutdown ran
	start             time.Time
}

// recover starts the nodes an interrupted run left down (the marker's),
// before anything else, and clears the marker.
func (r *run) recover(ctx context.Context, m inflight) error {
	if len(m.Nodes) == 0 {
		return nil
	}
	st, err := r.getstate(ctx, "-N", strings.Join(m.Nodes, ","))
	if err != nil {
		return err
	}
	var down []string
	for _, n := range m.Nodes {
		if s, ok := st.Node(n); !ok || s.State != gpfs.StateActive {
			down = append(down, n)
		}
	}
	if len(down) > 0 {
		r.report("starting " + strings.Join(down, ", ") + ", left down by an interrupted restart")
		if err := r.admin(ctx, "mmstartup", "-N", strings.Join(down, ",")); err != nil {
			return err
		}
		if err := r.waitBack(ctx, down, nil); err != nil {
			return fmt.Errorf("nodes left down by an interrupted restart did not come back: %w", err)
		}
		r.recovered = append(r.recovered, down...)
	}
	return clearMarker(ctx, r.h, r.marker)
}

// healthy refuses to restart anything while a quorum node or an NSD server
// is not active (18.6: a sick cluster is not made sicker).
func (r *run) healthy(ctx context.Context, t *topology) error {
	st, err := r.getstate(ctx, "-a")
	if err != nil {
		return err
	}
	var bad []string
	for _, n := range t.all {
		if !t.quorum[n] && len(t.serves[n]) == 0 {
			continue
		}
		state := "not listed by mmgetstate"
		if s, ok := st.Node(n); ok {
			state = s.State
		}
		if state != gpfs.StateActive {
			role := "NSD server"
			if t.quorum[n] {
				role = "quorum node"
			}
			bad = append(bad, fmt.Sprintf("%s %s is %s", role, n, state))
		}
	}
	if len(st.Unreachable) > 0 {
		bad = append(bad, "unreachable: "+strings.Join(st.Unreachable, ", "))
	}
	if len(bad) > 0 {
		return fmt.Errorf("refusing to restart anything: every quorum node and NSD server must be active first (%s)", strings.Join(bad, "; "))
	}
	return nil
}

// safe checks, just before a wave goes down, that no NSD would lose its
// last server and that quorum holds, given what is down right now.
func (r *run) safe(ctx context.Context, t *topology, wave []string) error {
	st, err := r.getstate(ctx, "-a")
	if err != nil {
		return err
	}
	up := func(n string) bool { s, ok := st.Node(n); return ok && s.State == gpfs.StateActive }
	var problems []string
	for _, n := range wave {
		for _, d := range t.serves[n] {
			var others []string
			for _, s := range t.servers[d] {
				if s != n && !slices.Contains(wave, s) && up(s) {
					others = append(others, s)
				}
			}
			if len(others) == 0 && len(t.servers[d]) > 1 {
				problems = append(problems, fmt.Sprintf("NSD %s would have no server up (servers %s)", d, strings.Join(t.servers[d], ", ")))
			}
		}
	}
	qDown := 0
	for _, n := range t.all {
		if t.quorum[n] && (slices.Contains(wave, n) || !up(n)) {
			qDown++
		}
	}
	if qDown > t.maxQuorumDown() && slices.ContainsFunc(wave, func(n string) bool { return t.quorum[n] }) {
		problems = append(problems, fmt.Sprintf("%d of %d quorum nodes would be down (at most %d keep quorum)", qDown, t.quorumCount(), t.maxQuorumDown()))
	}
	if len(problems) > 0 {
		return fmt.Errorf("refusing to take %s down: %s", strings.Join(wave, ", "), strings.Join(problems, "; "))
	}
	return nil
}

// rolling restarts the waves one after the other; a wave starts only when
// the one before is active and has its file systems mounted again.
func (r *run) rolling(ctx context.Context, t *topology, waves [][]string) error {
	r.start = time.Now()
	total := 0
	for _, w := range waves {
		total += len(w)
	}
	for i, wave := range waves {
		if err := ctx.Err(); err != nil {
			r.pendingFrom(waves[i:])
			return err
		}
		if err := r.safe(ctx, t, wave); err != nil {
			r.pendingFrom(waves[i:])
			return err
		}
		mounts, err := r.mounts(ctx)
		if err != nil {
			r.pendingFrom(waves[i:])
			return err
		}
		r.report(fmt.Sprintf("wave %d of %d: restarting %s (%d of %d nodes done)", i+1, len(waves), strings.Join(wave, ", "), len(r.restarted), total))
		if err := r.wave(ctx, wave, mounts, "-N", strings.Join(wave, ",")); err != nil {
			r.pendingFrom(waves[i+1:])
			return err
		}
	}
	return nil
}

// wave takes nodes down and up again (sel: "-N list" or "-a") and waits
// for them; an interrupt after the shutdown finishes the wave, bounded by
// r.finish, before it returns.
func (r *run) wave(ctx context.Context, nodes []string, mounts *gpfs.Mounts, sel ...string) error {
	if err := writeMarker(ctx, r.h, r.marker, nodes); err != nil {
		r.pending = append(r.pending, nodes...)
		return err
	}
	err := r.admin(ctx, append([]string{"mmshutdown"}, sel...)...)
	if err == nil {
		err = r.admin(ctx, append([]string{"mmstartup"}, sel...)...)
	}
	if err == nil {
		err = r.waitBack(ctx, nodes, mounts)
	}
	if err != nil && ctx.Err() != nil && r.touched {
		return r.finishWave(ctx, nodes, mounts, sel)
	}
	if err != nil && !r.touched {
		r.pending = append(r.pending, nodes...)
		return err
	}
	if err != nil {
		r.failedWave(nodes)
		return err
	}
	r.restarted = append(r.restarted, nodes...)
	return clearMarker(ctx, r.h, r.marker)
}

// finishWave brings an interrupted wave back: mmstartup again (it does
// nothing on a running daemon) and wait, on a context of its own bounded
// by r.finish. The marker stays when they do not come back in time.
func (r *run) finishWave(ctx context.Context, nodes []string, mounts *gpfs.Mounts, sel []string) error {
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.finish)
	defer cancel()
	r.report("interrupted: bringing " + strings.Join(nodes, ", ") + " back before stopping")
	saved := r.maxWait
	r.maxWait = r.finish
	err := r.admin(fctx, append([]string{"mmstartup"}, sel...)...)
	if err == nil {
		err = r.waitBack(fctx, nodes, mounts)
	}
	r.maxWait = saved
	if err != nil {
		r.failedWave(nodes)
		return fmt.Errorf("interrupted during the restart of %s and could not bring them back within %s: %v (the marker %s names them; the next run starts them first)", strings.Join(nodes, ", "), r.finish, err, r.marker)
	}
	r.restarted = append(r.restarted, nodes...)
	if err := clearMarker(fctx, r.h, r.marker); err != nil {
		return err
	}
	return &interrupted{nodes: nodes}
}

// interrupted: the run was interrupted and the wave in flight is back.
type interrupted struct{ nodes []string }

func (e *interrupted) Error() string {
	return "interrupted; the restart in flight was finished first: " + strings.Join(e.nodes, ", ") + " active again"
}

// failedWave records the states of a wave that did not come back.
func (r *run) failedWave(nodes []string) {
	for _, n := range nodes {
		if r.states[n] == "" {
			r.states[n] = "unknown"
		}
	}
}

func (r *run) pendingFrom(waves [][]string) {
	for _, w := range waves {
		r.pending = append(r.pending, w...)
	}
}

// cluster restarts every node at once and waits for all of them.
func (r *run) cluster(ctx context.Context, t *topology) error {
	r.start = time.Now()
	r.report("mmshutdown -a")
	return r.wave(ctx, t.all, nil, "-a")
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

// mounts reads mmlsmount all -L; nil when the cluster has no file system.
func (r *run) mounts(ctx context.Context) (*gpfs.Mounts, error) {
	out, err := gpfscmd.Probe(ctx, r.h, gpfscmd.MM("mmlsmount", "all", "-L"))
	if err != nil {
		return nil, err
	}
	if out.RC != 0 && strings.Contains(out.Stdout+out.Stderr, "No file systems were found") {
		return nil, nil
	}
	if out.RC != 0 {
		return nil, gpfscmd.Failure(r.h, "mmlsmount", out)
	}
	m, err := gpfs.ParseMmlsmount([]byte(out.Stdout))
	if err != nil {
		return nil, gpfscmd.ParseFailure(r.h, err)
	}
	return m, nil
}

// waitBack polls until every node is active and has again every file
// system before (mounted before the wave) shows it had, max_wait passes
// (an error naming the nodes not back) or ctx ends. A failing poll counts
// as not yet back.
func (r *run) waitBack(ctx context.Context, nodes []string, before *gpfs.Mounts) error {
	wctx, cancel := context.WithTimeout(ctx, r.maxWait)
	defer cancel()
	tick := time.NewTicker(r.interval)
	defer tick.Stop()
	for {
		st, err := r.getstate(wctx, "-N", strings.Join(nodes, ","))
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var notBack []string
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
				notBack = append(notBack, n)
			}
		}
		if len(notBack) == 0 && before != nil {
			now, merr := r.mounts(wctx)
			if merr != nil {
				err = merr
			}
			for _, n := range nodes {
				for _, fs := range before.On(n) {
					if now == nil || !now.MountedOn(fs, n) {
						r.states[n] = "active, " + fs + " not mounted"
						notBack = append(notBack, n)
						break
					}
				}
			}
		}
		if len(notBack) == 0 {
			return nil
		}
		r.report("waiting for " + strings.Join(notBack, ", ") + " to be active and mounted")
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wctx.Done():
			return r.timedOut(notBack, err)
		case <-tick.C:
		}
	}
}

func (r *run) timedOut(notBack []string, lastErr error) error {
	sort.Strings(notBack)
	var s []string
	for _, n := range notBack {
		s = append(s, n+" is "+r.states[n])
	}
	msg := fmt.Sprintf("not active after %s: %s", r.maxWait, strings.Join(s, ", "))
	if lastErr != nil && !errors.Is(lastErr, context.DeadlineExceeded) { // not the poll max_wait cut short
		msg += " (last poll: " + lastErr.Error() + ")"
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
