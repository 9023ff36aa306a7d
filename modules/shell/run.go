package shell

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

type args struct {
	Command string            `cty:"command"`
	Check   *string           `cty:"check"`
	Creates *string           `cty:"creates"`
	Removes *string           `cty:"removes"`
	Chdir   *string           `cty:"chdir"`
	Env     map[string]string `cty:"env"`
	Stdin   *string           `cty:"stdin"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Shell) NewArgs() any { return new(args) }

// Plan runs the guards, read-only, and says whether the command would run.
func (*Shell) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	a, err := module.Args[args](req)
	if err != nil {
		return module.PlanResponse{}, err
	}
	done, why, err := a.guard(ctx, req.Host)
	if err != nil {
		return module.PlanResponse{}, err
	}
	if done {
		return module.PlanResponse{Action: module.NoOp, Summary: why.text("already done: ", "")}, nil
	}
	return module.PlanResponse{Action: module.Change, Summary: why.text("will run: "+oneLine(a.Command)+" (", ")")}, nil
}

// Apply runs the command unless a guard says it is already done. When the
// engine planned just before, the guards are not run a second time.
func (*Shell) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.EmptyObjectVal}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	if p := req.Planned; p != nil && p.Action == module.NoOp {
		resp.Message = p.Summary
		return resp, nil
	}
	if req.Planned == nil {
		done, why, err := a.guard(ctx, req.Host)
		if err != nil {
			return resp, err
		}
		if done {
			resp.Message = why.text("already done: ", "")
			return resp, nil
		}
	}
	h := req.Host // Capture gives no stdin: the command reads nothing
	if a.Stdin != nil {
		h = withStdin{req.Host, strings.NewReader(*a.Stdin)}
	}
	out, err := module.Capture(ctx, h, a.wrap(module.Command("sh", "-c", a.Command), true))
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if err != nil {
		return resp, err
	}
	resp.Changed = true
	if out.RC != 0 {
		resp.Failed = true
		resp.Message = fmt.Sprintf("command exited with rc %d", out.RC)
		if l := module.LastLine(out.Stderr); l != "" {
			resp.Message += ": " + l
		}
	}
	return resp, nil
}

// guard reports whether the step is already done, and why (or why not).
// Guards are checked in order creates, removes, check; the first that says
// "done" wins.
func (a args) guard(ctx context.Context, h module.Host) (bool, reasons, error) {
	var why reasons
	if a.Creates == nil && a.Removes == nil && a.Check == nil {
		why.add("unconditional", "")
		return false, why, nil
	}
	if a.Creates != nil {
		exists, err := a.exists(ctx, h, *a.Creates)
		if err != nil || exists {
			why.add(*a.Creates, " exists")
			return exists, why, err
		}
		why.add(*a.Creates, " does not exist")
	}
	if a.Removes != nil {
		exists, err := a.exists(ctx, h, *a.Removes)
		if err != nil || !exists {
			why = reasons{}
			why.add(*a.Removes, " does not exist")
			return !exists, why, err
		}
		why.add(*a.Removes, " exists")
	}
	if a.Check != nil {
		out, err := module.Capture(ctx, h, a.wrap(module.Command("sh", "-c", *a.Check), true))
		if err != nil {
			return false, reasons{}, fmt.Errorf("shell check: %w", err)
		}
		if out.RC == 0 {
			why = reasons{}
			why.add("check succeeded", "")
			return true, why, nil
		}
		why.add("check exited ", strconv.Itoa(out.RC))
	}
	return false, why, nil
}

// reasons says why a step is done or would run, one reason per guard
// asked ("/a does not exist, check exited 1"), each kept as its two parts
// (a path and what holds of it), so that the plan's summary is made in one
// piece rather than from a string made of strings made of parts.
type reasons struct {
	parts [3][2]string
	n     int
}

func (r *reasons) add(subject, predicate string) {
	r.parts[r.n] = [2]string{subject, predicate}
	r.n++
}

// text is prefix, the reasons joined by ", ", and suffix.
func (r *reasons) text(prefix, suffix string) string {
	n := len(prefix) + len(suffix) + 2*max(r.n-1, 0)
	for _, p := range r.parts[:r.n] {
		n += len(p[0]) + len(p[1])
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(prefix)
	for i, p := range r.parts[:r.n] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(p[0])
		b.WriteString(p[1])
	}
	b.WriteString(suffix)
	return b.String()
}

// exists runs test -e; an exit status above 1 is test's own error.
func (a args) exists(ctx context.Context, h module.Host, path string) (bool, error) {
	// module.Command("test", "-e", path): the first two need no quoting.
	out, err := module.Capture(ctx, h, a.wrap("test -e "+module.Quote(path), false))
	if err != nil {
		return false, fmt.Errorf("shell guard: %w", err)
	}
	switch out.RC {
	case 0:
		return true, nil
	case 1:
		return false, nil
	}
	return false, fmt.Errorf("shell guard: test -e %s on %s exited %d: %s", path, h.Name(), out.RC, module.LastLine(out.Stderr))
}

// wrap prefixes inner with the cd and, if withEnv, the environment
// assignments, every value quoted.
func (a args) wrap(inner string, withEnv bool) string {
	if a.Chdir == nil && (!withEnv || len(a.Env) == 0) {
		return inner
	}
	var b strings.Builder
	if a.Chdir != nil {
		b.WriteString("cd -- " + module.Quote(*a.Chdir) + " && ")
	}
	if withEnv {
		names := make([]string, 0, len(a.Env))
		for k := range a.Env {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			b.WriteString(k + "=" + module.Quote(a.Env[k]) + " ")
		}
	}
	b.WriteString(inner)
	return b.String()
}

// withStdin is a Host whose commands read from r.
type withStdin struct {
	module.Host
	r io.Reader
}

func (w withStdin) Run(ctx context.Context, cmd string, _ io.Reader, stdout, stderr io.Writer) (int, error) {
	return w.Host.Run(ctx, cmd, w.r, stdout, stderr)
}

// oneLine shortens a command for a one-line plan summary.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i]) + " ..."
	}
	// Counted before converting: the runes are needed only to cut.
	if utf8.RuneCountInString(s) > 100 {
		s = string([]rune(s)[:97]) + "..."
	}
	return s
}
