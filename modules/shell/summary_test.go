package shell

import (
	"context"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
)

// The plan's summary names every guard asked, in order, each as its own
// words, joined by ", "; the first guard that says done is the summary
// alone.
func TestPlanSummaryNamesEveryGuard(t *testing.T) {
	str := func(s string) *string { return &s }
	cases := []struct {
		name  string
		args  args
		files []string
		want  string
	}{
		{"all three, none done", args{Command: "run", Creates: str("/a"), Removes: str("/b"), Check: str("false")},
			[]string{"/b"}, "will run: run (/a does not exist, /b exists, check exited 3)"},
		{"creates and removes", args{Command: "run\nmore", Creates: str("/a"), Removes: str("/b")},
			[]string{"/b"}, "will run: run ... (/a does not exist, /b exists)"},
		{"removes done after creates", args{Command: "run", Creates: str("/a"), Removes: str("/b")},
			nil, "already done: /b does not exist"},
		{"creates done", args{Command: "run", Creates: str("/a"), Check: str("false")},
			[]string{"/a"}, "already done: /a exists"},
		{"check done", args{Command: "run", Creates: str("/a"), Check: str("true")},
			nil, "already done: check succeeded"},
		{"unconditional", args{Command: "run"}, nil, "will run: run (unconditional)"},
	}
	for _, c := range cases {
		h := moduletest.NewFakeHost("n1")
		files(h)
		h.Reply(`^sh -c false$`, moduletest.Reply{RC: 3})
		h.Reply(`^sh -c true$`, moduletest.Reply{})
		for _, f := range c.files {
			h.SetFile(f, nil, 0o644)
		}
		a := c.args
		resp, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Typed: &a})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if resp.Summary != c.want {
			t.Errorf("%s: summary %q, want %q", c.name, resp.Summary, c.want)
		}
	}
}
