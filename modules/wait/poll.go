package wait

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Reads implements module.ReadOnly: waiting never changes a host.
func (*Wait) Reads(v cty.Value) string {
	a, err := module.DecodeArgs[args](v)
	if err != nil {
		return "waits"
	}
	s := "waits for: " + a.Command
	if a.Match != nil {
		s += fmt.Sprintf(" to print /%s/", *a.Match)
	}
	return s + fmt.Sprintf(" (every %s, up to %s)", a.Interval, a.MaxWait)
}

// ApplyOnly implements module.ApplyOnly: plan does not wait (the command
// is the author's, and the wait may last until max_wait).
func (*Wait) ApplyOnly() {}

// Apply polls the command until it succeeds, max_wait elapses (the step
// fails with the last output) or ctx ends (an error). An unreachable host
// counts as a failed attempt, so that a step can wait for a host to come
// back; if it is still unreachable at the end, that error is returned.
func (w *Wait) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(w.Outputs())}
	p, err := parse(module.Args[args](req))
	if err != nil {
		return resp, err
	}
	start := time.Now()
	wctx, cancel := context.WithTimeout(ctx, p.maxWait)
	defer cancel()
	pause := time.NewTimer(p.interval)
	pause.Stop()
	defer pause.Stop()

	var last module.Output
	var lastErr error
	attempts := 0
	for {
		attempts++
		out, err := module.Capture(wctx, req.Host, p.command)
		if ctx.Err() != nil {
			return resp, cancelled(ctx, p, attempts-1, last, lastErr)
		}
		if err == nil && p.ok(out) {
			last = out
			break
		}
		if err != nil && wctx.Err() != nil && attempts > 1 {
			// max_wait cut this attempt short: report the previous one.
			return w.timedOut(resp, p, attempts, time.Since(start), last, lastErr)
		}
		if err != nil && wctx.Err() == nil && !module.IsUnreachable(err) {
			return resp, err
		}
		last, lastErr = out, err
		if req.Progress != nil {
			el := time.Since(start)
			req.Progress(module.Progress{
				Message:   fmt.Sprintf("attempt %d: %s", attempts, describe(last, lastErr)),
				Elapsed:   el.Seconds(),
				Remaining: max(0, (p.maxWait - el).Seconds()),
			})
		}
		if ctx.Err() != nil {
			return resp, cancelled(ctx, p, attempts, last, lastErr)
		}
		if wctx.Err() != nil {
			return w.timedOut(resp, p, attempts, time.Since(start), last, lastErr)
		}
		pause.Reset(p.interval)
		select {
		case <-wctx.Done():
			if ctx.Err() != nil {
				return resp, cancelled(ctx, p, attempts, last, lastErr)
			}
			return w.timedOut(resp, p, attempts, time.Since(start), last, lastErr)
		case <-pause.C:
		}
	}
	resp.RC, resp.Stdout, resp.Stderr = last.RC, last.Stdout, last.Stderr
	resp.Outputs = outputs(attempts, time.Since(start))
	resp.Message = fmt.Sprintf("succeeded after %d attempts", attempts)
	return resp, nil
}

func (p parsed) ok(o module.Output) bool {
	return o.RC == 0 && (p.match == nil || p.match.MatchString(o.Stdout))
}

func (w *Wait) timedOut(resp module.ApplyResponse, p parsed, attempts int, el time.Duration, last module.Output, lastErr error) (module.ApplyResponse, error) {
	if module.IsUnreachable(lastErr) {
		return resp, fmt.Errorf("wait for %q: still unreachable after %s: %w", p.command, p.maxWait, lastErr)
	}
	resp.Failed = true
	resp.RC, resp.Stdout, resp.Stderr = last.RC, last.Stdout, last.Stderr
	resp.Outputs = outputs(attempts, el)
	resp.Message = fmt.Sprintf("timed out after %s (%d attempts): %s", p.maxWait, attempts, describe(last, lastErr))
	return resp, nil
}

// cancelled is the error for a wait whose context ended after completed
// attempts, the last of which gave last and lastErr.
func cancelled(ctx context.Context, p parsed, completed int, last module.Output, lastErr error) error {
	if completed == 0 {
		return fmt.Errorf("wait for %q: %w", p.command, ctx.Err())
	}
	return fmt.Errorf("wait for %q: %w after %d attempts (%s)", p.command, ctx.Err(), completed, describe(last, lastErr))
}

func outputs(attempts int, el time.Duration) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"attempts":  cty.NumberIntVal(int64(attempts)),
		"elapsed_s": cty.NumberFloatVal(el.Seconds()),
	})
}

// describe summarises an attempt for messages: its error, or its exit
// status and last line of output.
func describe(o module.Output, err error) string {
	if err != nil {
		return err.Error()
	}
	s := fmt.Sprintf("last rc %d", o.RC)
	for _, text := range []string{o.Stderr, o.Stdout} {
		if t := strings.TrimSpace(text); t != "" {
			lines := strings.Split(t, "\n")
			return s + ": " + lines[len(lines)-1]
		}
	}
	return s
}
