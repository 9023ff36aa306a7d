package apply

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// fakeHost answers commands from a function and records them.
type fakeHost struct {
	name string
	f    *fleet
}

type fleet struct {
	mu          sync.Mutex
	log         []string // "host: cmd"
	unreachable map[string]bool
	counters    map[string]int
	// started is closed when a command named "block" starts.
	started chan struct{}
	once    sync.Once
	// hook sees every command; wait is what "wait-n2-b" blocks on.
	hook func(host, cmd string)
	wait chan struct{}
}

func newFleet() *fleet {
	return &fleet{unreachable: map[string]bool{}, counters: map[string]int{}, started: make(chan struct{})}
}

func (f *fleet) host(name string) module.Host { return &fakeHost{name: name, f: f} }

func (f *fleet) commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.log...)
}

func (h *fakeHost) Name() string { return h.name }

func (h *fakeHost) Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	h.f.mu.Lock()
	h.f.log = append(h.f.log, h.name+": "+cmd)
	unreachable := h.f.unreachable[h.name]
	h.f.counters[h.name+"/"+cmd]++
	n := h.f.counters[h.name+"/"+cmd]
	h.f.mu.Unlock()
	if unreachable {
		return -1, &module.UnreachableError{Err: errors.New("connection refused")}
	}
	if h.f.hook != nil {
		h.f.hook(h.name, cmd)
	}
	switch {
	case cmd == "wait-n2-b":
		select {
		case <-h.f.wait:
			return 0, nil
		case <-ctx.Done():
			return -1, ctx.Err()
		}
	case cmd == "block":
		h.f.once.Do(func() { close(h.f.started) })
		<-ctx.Done()
		return -1, ctx.Err()
	case strings.HasPrefix(cmd, "echo "):
		fmt.Fprintln(stdout, strings.TrimPrefix(cmd, "echo "))
		return 0, nil
	case strings.HasPrefix(cmd, "fail-on "):
		if strings.Contains(cmd, h.name) {
			fmt.Fprintln(stderr, "boom")
			return 3, nil
		}
		return 0, nil
	case strings.HasPrefix(cmd, "succeed-after "):
		var k int
		fmt.Sscan(strings.TrimPrefix(cmd, "succeed-after "), &k)
		fmt.Fprintln(stdout, n)
		if n >= k {
			return 0, nil
		}
		return 1, nil
	case cmd == "late-echo":
		<-h.f.wait
		fmt.Fprintln(stdout, "late")
		return 0, nil
	case cmd == "whoami":
		fmt.Fprintln(stdout, h.name)
		return 0, nil
	}
	return 0, nil
}

func (h *fakeHost) Put(ctx context.Context, path string, r io.Reader, mode fs.FileMode) error {
	return nil
}
func (h *fakeHost) Get(ctx context.Context, path string, w io.Writer) error { return nil }

// cmdModule runs `command`; with `check`, Plan runs check (read-only) and
// reports no change when it succeeds.
type cmdModule struct{}

func (cmdModule) ID() string { return "cmd" }
func (cmdModule) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command": &hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true},
		"check":   &hcldec.AttrSpec{Name: "check", Type: cty.String},
	}
}
func (cmdModule) Outputs() cty.Type {
	return cty.Object(map[string]cty.Type{"lines": cty.List(cty.String)})
}
func (cmdModule) Validate(cty.Value) hcl.Diagnostics { return nil }
func (cmdModule) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	if c := req.Args.GetAttr("check"); !c.IsNull() {
		o, err := module.Capture(ctx, req.Host, c.AsString())
		if err != nil {
			return module.PlanResponse{}, err
		}
		if o.RC == 0 {
			return module.PlanResponse{Action: module.NoOp, Summary: "already done"}, nil
		}
	}
	return module.PlanResponse{Action: module.Change, Summary: "will run " + req.Args.GetAttr("command").AsString(),
		Changes: []module.AttrChange{{Name: "command", From: "", To: req.Args.GetAttr("command").AsString()}}}, nil
}
func (cmdModule) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	o, err := module.Capture(ctx, req.Host, req.Args.GetAttr("command").AsString())
	if err != nil {
		return module.ApplyResponse{}, err
	}
	var lines []cty.Value
	for _, l := range strings.Split(strings.TrimSpace(o.Stdout), "\n") {
		if l != "" {
			lines = append(lines, cty.StringVal(l))
		}
	}
	lv := cty.ListValEmpty(cty.String)
	if len(lines) > 0 {
		lv = cty.ListVal(lines)
	}
	return module.ApplyResponse{Changed: o.RC == 0, Failed: o.RC != 0, Message: msgFor(o.RC), RC: o.RC, Stdout: o.Stdout, Stderr: o.Stderr,
		Outputs: cty.ObjectVal(map[string]cty.Value{"lines": lv})}, nil
}

func msgFor(rc int) string {
	if rc == 0 {
		return ""
	}
	return fmt.Sprintf("exit status %d", rc)
}

type testInv []string

func (t testInv) Names() []string { return t }
func (t testInv) SelectNames(p string) ([]string, error) {
	if p == "all" {
		return t, nil
	}
	var out []string
	for _, n := range t {
		if n == p || strings.HasPrefix(p, "!") && n != p[1:] {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("pattern %q matches no host", p)
	}
	return out, nil
}

// events records every event.
type events struct {
	mu sync.Mutex
	es []event.Event
}

func (e *events) Observe(ev event.Event) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.es = append(e.es, ev)
}

func (e *events) finished() map[string]event.HostFinished {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]event.HostFinished{}
	for _, ev := range e.es {
		if hf, ok := ev.(event.HostFinished); ok {
			out[hf.Step+"@"+hf.Host] = hf
		}
	}
	return out
}

func (e *events) all() []event.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]event.Event(nil), e.es...)
}

type setup struct {
	fleet *fleet
	ev    *events
	r     *Runner
}

func newRun(t interface {
	Helper()
	Fatal(...any)
}, src string, hosts []string, mode Mode) *setup {
	t.Helper()
	rb, diags := config.Parse(map[string][]byte{"test.hcl": []byte(src)})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	reg := module.NewRegistry()
	reg.Register(cmdModule{})
	reg.Register(holdsModule{})

	reg.Register(probeModule{})
	reg.Register(wipeModule{})
	reg.Register(&typedModule{seen: map[string]any{}})
	reg.Register(lingerModule{})
	reg.Register(payloadModule{})
	prog, diags := program.Bind(rb, reg)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	vars, diags := eval.ResolveVariables(rb, eval.Inputs{})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	var his []eval.HostInfo
	for _, h := range hosts {
		his = append(his, eval.HostInfo{Name: h})
	}
	scope := eval.NewScope(vars.Values, his, map[string][]string{"all": hosts}, ".", prog.ResultTypes())
	locals, diags := eval.EvalLocals(rb, scope.Base())
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	scope.Locals = locals
	s := &setup{fleet: newFleet(), ev: &events{}}
	s.r = New(prog, scope, testInv(hosts), Options{Mode: mode, Forks: 4, Host: s.fleet.host, Observer: s.ev})
	return s
}

func asDrift(err error, de **DriftError) bool { return errors.As(err, de) }
