package clusterlock

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"time"
)

// Status is what Status found on the lock host.
type Status struct {
	Where  string
	Held   bool
	Holder Holder // the current holder (Held) or the last one
	Known  bool   // a holder file was read
	Log    []string
}

// Status reads the lock without keeping it.
func (l *Lock) Status(ctx context.Context) (Status, error) {
	var out, errb bytes.Buffer
	rc, err := l.Host.Run(ctx, statusScript(l.Path), nil, &out, &errb)
	if err != nil {
		return Status{}, fmt.Errorf("cluster lock host %s: %w", l.Host.Name(), err)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	st := Status{Where: l.Where()}
	switch {
	case rc == 0 && len(lines) > 0 && (lines[0] == "FREE" || lines[0] == "HELD"):
		st.Held = lines[0] == "HELD"
	case len(lines) > 0 && lines[0] == "NOFLOCK":
		return st, fmt.Errorf("cluster lock %s: flock(1) is not installed on %s (util-linux)", l.Where(), l.Host.Name())
	default:
		return st, fmt.Errorf("cluster lock %s: unexpected answer from %s (exit %d): %q %s", l.Where(), l.Host.Name(), rc, out.String(), strings.TrimSpace(errb.String()))
	}
	var hl []string
	inLog := false
	for _, s := range lines[1:] {
		switch {
		case s == "--log":
			inLog = true
		case inLog:
			st.Log = append(st.Log, s)
		default:
			hl = append(hl, s)
		}
	}
	st.Holder, st.Known = parseHolder(hl)
	return st, nil
}

// Break frees a lock another run holds: it kills the holding shell on the
// lock host, waits for the lock and logs me as the one who broke it. It
// returns false when nothing was held.
func (l *Lock) Break(ctx context.Context, me Holder) (bool, error) {
	var out, errb bytes.Buffer
	rc, err := l.Host.Run(ctx, breakScript(l.Path, me), nil, &out, &errb)
	if err != nil {
		return false, fmt.Errorf("cluster lock host %s: %w", l.Host.Name(), err)
	}
	switch strings.TrimSpace(out.String()) {
	case "FREE":
		return false, nil
	case "BROKEN":
		return true, nil
	case "STILLHELD":
		return false, fmt.Errorf("cluster lock %s: the holder did not let go (no pid in the holder file, or it survived SIGTERM for 10s)", l.Where())
	}
	return false, fmt.Errorf("cluster lock %s: unexpected answer from %s (exit %d): %q %s", l.Where(), l.Host.Name(), rc, out.String(), strings.TrimSpace(errb.String()))
}

// parseHolder reads key=value lines of a holder file.
func parseHolder(lines []string) (Holder, bool) {
	var h Holder
	known := false
	for _, s := range lines {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			continue
		}
		known = true
		switch k {
		case "user":
			h.User = v
		case "run_id":
			h.RunID = v
		case "runbook":
			h.Runbook = v
		case "since":
			h.Since, _ = time.Parse(time.RFC3339, v)
		case "pid":
			h.PID = v
		}
	}
	return h, known
}
