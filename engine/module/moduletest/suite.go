package moduletest

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Case is one conformance case: module arguments and the host they run on.
type Case struct {
	// Name names the subtest and the transcript testdata/<Name>.commands.golden;
	// lowercase letters, digits, '_' and '-'.
	Name string
	// Body holds the module's arguments in HCL, without meta-arguments.
	Body string
	// Setup scripts the host: replies, files, and handlers that model the
	// state changes Apply makes (needed for the idempotency check).
	Setup func(*FakeHost)
	// EvalContext evaluates Body; nil means literals only.
	EvalContext *hcl.EvalContext
	// BaseDir is passed to Plan and Apply (the runbook's directory).
	BaseDir string
	// Probes are regular expressions; every command Plan issues must match
	// one, and so must every command a ReadOnly module's Apply issues (plan
	// runs it for real). Neither may upload.
	Probes []string
	// WantFailed says Apply is expected to report Failed.
	WantFailed bool
	// NotIdempotent skips the check that Plan after Apply is NoOp (for
	// steps that run every time, such as an unguarded shell command).
	NotIdempotent bool
}

var caseName = regexp.MustCompile(`^[a-z0-9_-]+$`)

// Run is the conformance suite for module m: the contract checks (ID, kind,
// spec, argument struct, outputs, documentation and its examples) and, for
// each case, decode and validate, a read-only Plan (the module's own for a
// Planner, the engine's for a ReadOnly module) whose transcript is compared
// with testdata/<case>.commands.golden, Apply (for a ReadOnly module: only
// probes, no upload, no change), Plan again (NoOp unless the case is
// NotIdempotent), and the handling of a cancelled context. Plan and Apply
// are handed the arguments as the engine hands them: the cty value and, for
// a module with an argument struct, the struct decoded from it, which they
// must not modify (the engine shares it between hosts).
func Run(t *testing.T, m module.Module, cases []Case) {
	t.Helper()
	t.Run("contract", func(t *testing.T) { checkContract(t, m) })
	if d, ok := m.(module.Describer); ok {
		t.Run("doc", func(t *testing.T) { checkDoc(t, m, d) })
	}
	if len(cases) == 0 {
		t.Error("no conformance cases")
	}
	seen := map[string]bool{}
	for _, c := range cases {
		if !caseName.MatchString(c.Name) || seen[c.Name] {
			t.Errorf("case name %q: must be unique and match %s", c.Name, caseName)
			continue
		}
		seen[c.Name] = true
		t.Run(c.Name, func(t *testing.T) {
			args := decodeCase(t, m, c)
			runCase(t, m, c, args)
			t.Run("cancel", func(t *testing.T) { checkCancel(t, m, c, args) })
		})
	}
}

func decodeCase(t *testing.T, m module.Module, c Case) cty.Value {
	t.Helper()
	file, diags := hclsyntax.ParseConfig([]byte(c.Body), c.Name+".hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("body does not parse: %s", diags.Error())
	}
	args, diags := hcldec.Decode(file.Body, m.Spec(), c.EvalContext)
	if diags.HasErrors() {
		t.Fatalf("body does not decode: %s", diags.Error())
	}
	if diags := m.Validate(args); diags.HasErrors() {
		t.Fatalf("Validate: %s", diags.Error())
	}
	if be, ok := m.(module.BodyEvaluator); ok {
		_, known, diags := be.EvalBody(file.Body, c.EvalContext)
		if diags.HasErrors() {
			t.Fatalf("EvalBody: %s", diags.Error())
		}
		if !known {
			t.Fatal("EvalBody: known = false for a body with known values")
		}
	}
	if !args.IsWhollyKnown() {
		t.Fatal("case arguments must be wholly known")
	}
	if _, err := module.DecodeTyped(m, args); err != nil {
		t.Fatalf("the arguments do not decode into the module's struct: %v", err)
	}
	return args
}

// typedArgs decodes args into the module's argument struct as the engine
// does (nil for a module without one); the case is known to decode.
func typedArgs(m module.Module, args cty.Value) any {
	typed, _ := module.DecodeTyped(m, args)
	return typed
}

// checkTypedUnchanged fails when a module wrote into the argument struct
// the engine handed it: the engine shares one between the hosts of a step.
func checkTypedUnchanged(t *testing.T, m module.Module, args cty.Value, typed any) {
	t.Helper()
	if typed == nil {
		return
	}
	if fresh := typedArgs(m, args); !reflect.DeepEqual(fresh, typed) {
		t.Errorf("Plan or Apply modified the argument struct it was handed (%#v, decoded %#v): the engine shares it between the hosts of a step; copy before changing a map or a slice", typed, fresh)
	}
}

func newHost(c Case) *FakeHost {
	h := NewFakeHost("fake1")
	if c.Setup != nil {
		c.Setup(h)
	}
	return h
}

func runCase(t *testing.T, m module.Module, c Case, args cty.Value) {
	t.Helper()
	ctx := context.Background()
	h := newHost(c)
	var tr bytes.Buffer

	typed := typedArgs(m, args)
	if sa, ok := m.(module.StructArgs); ok {
		checkStructArgs(t, ctx, sa, c, args, typed)
	}
	plan := planProbes(t, ctx, m, c, h, args, typed)
	writeSection(&tr, fmt.Sprintf("plan: %s: %s", plan.Action, plan.Summary), h.Commands())

	h.ResetCommands()
	resp, err := module.CallApply(ctx, m, module.ApplyRequest{Host: h, Args: args, Typed: typed, BaseDir: c.BaseDir,
		Planned: &plan, Progress: func(module.Progress) {}})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	writeSection(&tr, fmt.Sprintf("apply: changed=%t failed=%t rc=%d", resp.Changed, resp.Failed, resp.RC), h.Commands())
	checkApply(t, m, c, plan, resp)
	if _, ok := m.(module.ReadOnly); ok {
		_, applyOnly := m.(module.ApplyOnly)
		checkReadOnlyApply(t, c, h.Commands(), resp, !applyOnly)
	}

	if !c.NotIdempotent && !resp.Failed {
		h.ResetCommands()
		again := planProbes(t, ctx, m, c, h, args, typed)
		writeSection(&tr, fmt.Sprintf("plan after apply: %s: %s", again.Action, again.Summary), h.Commands())
		if again.Action != module.NoOp {
			t.Errorf("Plan after Apply = %s (%s), want %s: Apply is not idempotent", again.Action, again.Summary, module.NoOp)
		}
	}
	checkTypedUnchanged(t, m, args, typed)
	checkTranscript(t, filepath.Join("testdata", c.Name+".commands.golden"), tr.Bytes())
}

// planProbes runs Plan and checks it only issued the case's probes. For a
// ReadOnly module it is the plan the engine supplies: NoOp, Reads.
func planProbes(t *testing.T, ctx context.Context, m module.Module, c Case, h *FakeHost, args cty.Value, typed any) module.PlanResponse {
	t.Helper()
	p, ok := m.(module.Planner)
	if !ok {
		return module.PlanResponse{Action: module.NoOp, Summary: module.Describe(m, args)}
	}
	before := len(h.Commands())
	plan, err := module.CallPlan(ctx, p, module.PlanRequest{Host: h, Args: args, Typed: typed, BaseDir: c.BaseDir})
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	for _, cmd := range h.Commands()[before:] {
		if strings.HasPrefix(cmd, "put ") || !matchesAny(c.Probes, cmd) {
			t.Errorf("Plan issued %q, which is not one of the case's probes", cmd)
		}
	}
	if plan.Summary == "" {
		t.Error("Plan gave no summary")
	}
	return plan
}

func checkApply(t *testing.T, m module.Module, c Case, plan module.PlanResponse, resp module.ApplyResponse) {
	t.Helper()
	if resp.Failed != c.WantFailed {
		t.Errorf("Apply Failed = %t, want %t (message %q)", resp.Failed, c.WantFailed, resp.Message)
	}
	if resp.Failed && resp.Message == "" && len(resp.Diagnostics) == 0 {
		t.Error("Apply failed without a message or diagnostics")
	}
	if plan.Action == module.NoOp && resp.Changed {
		t.Error("Plan said no change but Apply reported a change")
	}
	if o := resp.Outputs; o != cty.NilVal && !o.IsNull() && !o.Type().Equals(m.Outputs()) {
		t.Errorf("Apply outputs have type %s, want %s", o.Type().GoString(), m.Outputs().GoString())
	}
}

// checkReadOnlyApply holds a ReadOnly module to its declaration: plan runs
// its Apply for real, so Apply may only probe (probes: every command must
// match the case's Probes; an ApplyOnly module, which plan does not run, may
// run the author's commands).
func checkReadOnlyApply(t *testing.T, c Case, cmds []string, resp module.ApplyResponse, probes bool) {
	t.Helper()
	if resp.Changed {
		t.Error("a ReadOnly module's Apply reported a change")
	}
	for _, cmd := range cmds {
		if strings.HasPrefix(cmd, "put ") {
			t.Errorf("a ReadOnly module's Apply uploaded: %q", cmd)
		} else if probes && !matchesAny(c.Probes, cmd) {
			t.Errorf("a ReadOnly module's Apply issued %q, which is not one of the case's probes", cmd)
		}
	}
}

func matchesAny(patterns []string, s string) bool {
	for _, p := range patterns {
		if regexp.MustCompile(p).MatchString(s) {
			return true
		}
	}
	return false
}

func writeSection(b *bytes.Buffer, title string, cmds []string) {
	fmt.Fprintf(b, "# %s\n", title)
	for _, c := range cmds {
		b.WriteString(c)
		b.WriteByte('\n')
	}
}

// WithProbes adds probe patterns to every case: a ReadOnly module's probes
// are usually the same whatever its arguments.
func WithProbes(cases []Case, probes ...string) []Case {
	out := make([]Case, len(cases))
	for i, c := range cases {
		c.Probes = append(append([]string(nil), c.Probes...), probes...)
		out[i] = c
	}
	return out
}

// checkStructArgs holds a StructArgs module to its declaration: Validate
// gives no diagnostic for the case's arguments, and Plan and Apply on a
// fresh host answer the same, issuing the same commands, when the
// request's Args is left out (cty.NilVal) and only the struct is handed
// over, as the engine plans and applies such a module. Apply is asked
// both without a plan (it runs its own guards) and with the plan made
// just before.
func checkStructArgs(t *testing.T, ctx context.Context, m module.StructArgs, c Case, args cty.Value, typed any) {
	t.Helper()
	if diags := m.Validate(args); len(diags) > 0 {
		t.Errorf("a StructArgs module's Validate gave diagnostics (it must check nothing the spec does not): %s", diags.Error())
	}
	if typed == nil {
		t.Fatal("a StructArgs module's arguments decoded into no struct")
	}
	plan := func(args cty.Value) (module.PlanResponse, []string, error) {
		h := newHost(c)
		resp, err := module.CallPlan(ctx, m, module.PlanRequest{Host: h, Args: args, Typed: typed, BaseDir: c.BaseDir})
		return resp, h.Commands(), err
	}
	want, wantCmds, wantErr := plan(args)
	got, gotCmds, gotErr := plan(cty.NilVal)
	if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
		t.Errorf("Plan without Args: error %v, with Args %v: a StructArgs module must read its arguments from the struct", gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) || !slices.Equal(gotCmds, wantCmds) {
		t.Errorf("Plan without Args answered %#v issuing %q, with Args %#v issuing %q: a StructArgs module must read its arguments from the struct", got, gotCmds, want, wantCmds)
	}
	for _, planned := range []*module.PlanResponse{nil, &want} {
		apply := func(args cty.Value) (module.ApplyResponse, []string, error) {
			h := newHost(c)
			resp, err := module.CallApply(ctx, m, module.ApplyRequest{Host: h, Args: args, Typed: typed, BaseDir: c.BaseDir,
				Planned: planned, Progress: func(module.Progress) {}})
			return resp, h.Commands(), err
		}
		want, wantCmds, wantErr := apply(args)
		got, gotCmds, gotErr := apply(cty.NilVal)
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Errorf("Apply (planned: %t) without Args: error %v, with Args %v: a StructArgs module must read its arguments from the struct", planned != nil, gotErr, wantErr)
		}
		if !reflect.DeepEqual(got, want) || !slices.Equal(gotCmds, wantCmds) {
			t.Errorf("Apply (planned: %t) without Args answered %#v issuing %q, with Args %#v issuing %q: a StructArgs module must read its arguments from the struct", planned != nil, got, gotCmds, want, wantCmds)
		}
	}
}
