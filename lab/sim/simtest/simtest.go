// Package simtest runs a simulated tool in-process against a node model,
// for tests: no SSH, no namespace, a fake clock.
package simtest

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Result is what a tool printed and returned.
type Result struct {
	Stdout, Stderr string
	Status         int
}

// Clock is a fake clock whose Sleep advances it at once.
type Clock struct{ T time.Time }

// Env returns an Env for node n in a fresh lab directory, with the clock
// c and environment variables env.
func Env(t testing.TB, n *model.Node, c *Clock, env map[string]string, args ...string) (*sim.Env, *bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	nodeDir := filepath.Join(dir, "nodes", n.Name)
	if err := os.MkdirAll(nodeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := n.Save(nodeDir); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	e := &sim.Env{Dir: dir, Node: n.Name, Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return c.T },
		Sleep:  func(ctx context.Context, d time.Duration) error { c.T = c.T.Add(d); return ctx.Err() },
	}
	return e, &out, &errb
}

// Run runs tool on node n with args.
func Run(t testing.TB, tool sim.Tool, n *model.Node, args ...string) Result {
	t.Helper()
	c := &Clock{T: time.Date(2026, 11, 29, 14, 3, 47, 0, time.UTC)}
	e, out, errb := Env(t, n, c, nil, args...)
	table, err := sim.NewTable(tool)
	if err != nil {
		t.Fatal(err)
	}
	st := table.Run(context.Background(), tool.Name, e)
	return Result{out.String(), errb.String(), st}
}

// Expand replaces TABs with spaces to 8-column stops, as a terminal or a
// web page shows them (published samples are often expanded).
func Expand(s string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		col := 0
		for _, r := range line {
			if r == '\t' {
				n := 8 - col%8
				b.WriteString(strings.Repeat(" ", n))
				col += n
				continue
			}
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

var statusLine = regexp.MustCompile(`(?m)^\[exit status \d+\]\n?`)

// Sample strips a local capture's "[exit status N]" collector line.
func Sample(b []byte) string { return statusLine.ReplaceAllString(string(b), "") }
