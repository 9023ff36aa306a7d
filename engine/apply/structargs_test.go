package apply

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

type structArgsFields struct {
	Command string            `cty:"command"`
	Check   *string           `cty:"check"`
	Env     map[string]string `cty:"env"`
	Count   *int              `cty:"count"`
}

// structModule is a StructArgs module with a shell-like spec: non-empty
// strings, a map, a number.
type structModule struct{ cmdModule }

func (structModule) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command": module.NonEmpty(&hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true}),
		"check":   module.NonEmpty(&hcldec.AttrSpec{Name: "check", Type: cty.String}),
		"env":     &hcldec.AttrSpec{Name: "env", Type: cty.Map(cty.String)},
		"count":   &hcldec.AttrSpec{Name: "count", Type: cty.Number},
	}
}
func (structModule) NewArgs() any { return new(structArgsFields) }
func (structModule) StructArgs()  {}

var _ module.StructArgs = structModule{}

// A StructArgs step's arguments decoded into the struct alone
// (decodeStruct) must be what decoding the whole body with hcldec,
// validating it and decoding the object into the struct give, on every
// host, whenever decodeStruct gives them; everywhere else decode must take
// the object's path. The bodies hold per-host values the compiled form
// gives and ones it does not (numbers for a number, unknowns, nulls,
// empty strings the spec refuses), and shared parts that are unknown or
// have diagnostics. (No marks: gocty refuses marked values, and prova
// marks none at run time; sensitive values are redacted as text.)
func TestDecodeStructMatchesDecodeTyped(t *testing.T) {
	m := structModule{}
	spec := m.Spec()
	bodies := []string{
		`command = "echo ${host.name} ${host.vars.idx}"`,
		`command = "echo ${host.name}"
check = "test -e /tmp/${host.vars.rack}"
env = { A = var.x }`,
		`command = host.vars.mode
check = var.x`,
		`command = "run"
check = "${step.a.stdout} ${host.name}"`,
		`command = "x ${host.name}"
check = var.later`,
		`command = "x ${host.name}"
env = { "A" = var.missing }`,
		`command = "run"
count = host.vars.idx`,
		`command = "run"
check = host.vars.mode`,
		`command = "${host.vars.frac}"
bogus = 1`,
	}
	vars := map[string]cty.Value{"x": cty.StringVal("1"), "later": cty.UnknownVal(cty.String)}
	hosts := []eval.HostInfo{
		{Name: "n1", Vars: map[string]cty.Value{"idx": cty.NumberIntVal(4), "mode": cty.StringVal("0600"),
			"rack": cty.StringVal("r1"), "frac": num512(t, "0.1")}},
		{Name: "n2", Vars: map[string]cty.Value{"idx": num512(t, "17"), "mode": cty.NullVal(cty.String),
			"rack": cty.StringVal("r2"), "frac": num512(t, "1e30")}},
		{Name: "n3", Vars: map[string]cty.Value{"idx": cty.NumberIntVal(3), "mode": cty.StringVal(""),
			"rack": cty.StringVal("r1"), "frac": cty.UnknownVal(cty.Number)}},
		{Name: "n4", Vars: map[string]cty.Value{"idx": cty.NumberIntVal(9), "mode": cty.StringVal("0644"),
			"rack": cty.StringVal("r3"), "frac": num512(t, "2")}},
	}
	aType := cty.Object(map[string]cty.Type{"stdout": cty.String})
	scope := eval.NewScope(vars, hosts, nil, "", map[string]cty.Type{"a": aType})
	scope.Locals = map[string]cty.Value{}
	results := eval.NewResults()
	results.Set("a", "n1", cty.ObjectVal(map[string]cty.Value{"stdout": cty.StringVal("out1")}))
	results.Set("a", "n2", cty.UnknownVal(aType))
	results.Set("a", "n3", cty.ObjectVal(map[string]cty.Value{"stdout": cty.StringVal("s")}))
	results.Set("a", "n4", cty.ObjectVal(map[string]cty.Value{"stdout": cty.StringVal("")}))
	viaStruct := 0
	for i, src := range bodies {
		f, diags := hclsyntax.ParseConfig([]byte(src), fmt.Sprintf("b%d.hcl", i), hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		ss := scope.Step(results, eval.RefsOf(hcldec.Variables(f.Body, spec)), cty.NilVal)
		se := &stepEval{s: &program.Step{Step: &config.Step{Body: f.Body}, Module: m}, scope: ss, spec: spec, argsPerHost: true}
		se.split = newSplitArgs(f.Body, spec, ss)
		keys := []string{}
		for _, ha := range se.split.hostAttrs {
			keys = append(keys, ha.key)
		}
		if se.typed = newSplitTyped(m, keys); se.typed == nil {
			t.Fatalf("body %d: no field-by-field decoding", i)
		}
		se.structArgs = true
		// Twice over the hosts: the first host that decodes whole makes
		// the struct the others copy.
		for round := range 2 {
			for _, h := range hosts {
				want, wd := hcldec.Decode(f.Body, spec, ss.Host(h.Name, cty.NilVal))
				wantValid := m.Validate(want)
				var wantTyped any
				var wantErr error
				if !wd.HasErrors() && want.IsWhollyKnown() {
					wantTyped, wantErr = module.DecodeTyped(m, want)
				}
				_, fast := se.decodeStruct(se.on(h.Name))
				got := se.decode(se.on(h.Name))
				where := fmt.Sprintf("body %d, round %d, on %s", i, round, h.Name)
				if !fast {
					if !got.val.RawEquals(want) {
						t.Errorf("%s: the object's path gave %#v, hcldec %#v", where, got.val, want)
					}
					continue
				}
				viaStruct++
				switch {
				case len(wd) > 0 || len(wantValid) > 0 || wantErr != nil:
					t.Errorf("%s: decoded into the struct, but hcldec says %v, Validate %v, the struct %v", where, wd, wantValid, wantErr)
				case !want.IsWhollyKnown() || !got.known:
					t.Errorf("%s: decoded into the struct with known %v, IsWhollyKnown %v", where, got.known, want.IsWhollyKnown())
				case got.val != cty.NilVal || len(got.decode) > 0 || len(got.validate) > 0 || got.typedErr != nil:
					t.Errorf("%s: the struct's path gave a value or diagnostics: %#v", where, got)
				case !reflect.DeepEqual(got.typed, wantTyped):
					t.Errorf("%s: struct %s", where, cmp.Diff(wantTyped, got.typed))
				}
			}
		}
	}
	// Most hosts of the commonest shapes must have gone the struct's way,
	// or this would test only the object's path.
	if viaStruct < 12 {
		t.Errorf("%d host arguments decoded into the struct alone", viaStruct)
	}
	t.Logf("%d host arguments decoded into the struct alone", viaStruct)
}
