package apply

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// lingerModule runs `command` and records the host it was given; with
// linger, it runs `command` in a goroutine of its own and returns once
// that command has started, leaving it running (lingered waits for it).
type lingerModule struct{}

var lingerSeen struct {
	mu    sync.Mutex
	hosts []module.Host
	late  sync.WaitGroup
	// started is closed when the lingering command has started (the
	// test's fleet hook closes it).
	started chan struct{}
}

func (lingerModule) ID() string { return "linger" }
func (lingerModule) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command": &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true},
		"linger":  &hcldec.AttrSpec{Name: "linger", Type: cty.Bool},
	}
}
func (lingerModule) Outputs() cty.Type                  { return cty.EmptyObject }
func (lingerModule) Validate(cty.Value) hcl.Diagnostics { return nil }
func (lingerModule) Plan(context.Context, module.PlanRequest) (module.PlanResponse, error) {
	return module.PlanResponse{Action: module.Change}, nil
}
func (lingerModule) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	lingerSeen.mu.Lock()
	lingerSeen.hosts = append(lingerSeen.hosts, req.Host)
	lingerSeen.mu.Unlock()
	cmd := req.Args.GetAttr("command").AsString()
	if l := req.Args.GetAttr("linger"); !l.IsNull() && l.True() {
		lingerSeen.late.Add(1)
		go func() {
			defer lingerSeen.late.Done()
			_, _ = module.Capture(context.Background(), req.Host, cmd)
		}()
		<-lingerSeen.started
		return module.ApplyResponse{Outputs: cty.EmptyObjectVal}, nil
	}
	o, err := module.Capture(ctx, req.Host, cmd)
	return module.ApplyResponse{RC: o.RC, Stdout: o.Stdout, Outputs: cty.EmptyObjectVal}, err
}

func resetLingerSeen() {
	lingerSeen.mu.Lock()
	lingerSeen.hosts = nil
	lingerSeen.mu.Unlock()
}

// outputsOf is every Output event's step and line, by host.
func outputsOf(es []event.Event) map[string][]string {
	out := map[string][]string{}
	for _, e := range es {
		if o, ok := e.(event.Output); ok {
			out[o.Host] = append(out[o.Host], o.Step+": "+o.Line)
		}
	}
	return out
}

// A host's streaming host serves each of its steps in turn, reset for
// the step: every step's output is labelled with its own step, and the
// module is given the same host at every step.
func TestStreamingHostKeptPerHost(t *testing.T) {
	resetLingerSeen()
	src := ""
	for i := 1; i <= 3; i++ {
		src += fmt.Sprintf("step \"linger\" \"s%d\" {\n  command = \"echo line %d\"\n}\n", i, i)
	}
	s := newRun(t, src, []string{"n1", "n2"}, ModeApply)
	if _, err := s.r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := outputsOf(s.ev.all())
	for _, h := range []string{"n1", "n2"} {
		want := []string{"linger.s1: line 1", "linger.s2: line 2", "linger.s3: line 3"}
		if fmt.Sprint(got[h]) != fmt.Sprint(want) {
			t.Errorf("%s: output %q, want %q", h, got[h], want)
		}
	}
	by := map[string]map[module.Host]bool{}
	for _, h := range lingerSeen.hosts {
		if by[h.Name()] == nil {
			by[h.Name()] = map[module.Host]bool{}
		}
		by[h.Name()][h] = true
	}
	for _, h := range []string{"n1", "n2"} {
		if len(by[h]) != 1 {
			t.Errorf("%s: %d streaming hosts over 3 steps, want the one kept", h, len(by[h]))
		}
		if st := s.r.hosts.get(h, false); st == nil || st.stream.Load() == nil {
			t.Errorf("%s: no streaming host kept after the run", h)
		}
	}
}

// A module that returns while a command of its still runs keeps its
// streaming host: the next step gets a new one, and the late command's
// output is labelled with the step that ran it (the race detector sees the
// two steps' hosts apart).
func TestStreamingHostWithACommandRunningIsNotKept(t *testing.T) {
	resetLingerSeen()
	src := `
step "linger" "first" {
  command = "late-echo"
  linger  = true
}
step "linger" "second" {
  command = "echo second"
}
step "linger" "third" {
  command = "echo third"
}
`
	s := newRun(t, src, []string{"n1"}, ModeApply)
	s.fleet.wait = make(chan struct{})
	started := make(chan struct{})
	var once sync.Once
	s.fleet.hook = func(host, cmd string) {
		if cmd == "late-echo" {
			once.Do(func() { close(started) })
		}
	}
	// The first step's Apply returns once its command started (the
	// command blocks until wait closes).
	lingerSeen.started = started
	if _, err := s.r.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	close(s.fleet.wait)
	lingerSeen.late.Wait()
	if len(lingerSeen.hosts) != 3 {
		t.Fatalf("%d module calls, want 3", len(lingerSeen.hosts))
	}
	first, second, third := lingerSeen.hosts[0], lingerSeen.hosts[1], lingerSeen.hosts[2]
	if first == second {
		t.Errorf("the second step got the host of the first, whose command still ran")
	}
	if second != third {
		t.Errorf("the third step got a new host, not the second's kept one")
	}
	got := outputsOf(s.ev.all())["n1"]
	want := map[string]bool{"linger.first: late": true, "linger.second: second": true, "linger.third: third": true}
	if len(got) != len(want) {
		t.Fatalf("output %q, want %v", got, want)
	}
	for _, l := range got {
		if !want[l] {
			t.Errorf("output %q: not one of %v", l, want)
		}
	}
}
