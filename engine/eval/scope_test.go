package eval

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func evalExpr(t *testing.T, ctx *hcl.EvalContext, src string) cty.Value {
	t.Helper()
	expr, diags := hclsyntax.ParseExpression([]byte(src), "expr.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	v, diags := expr.Value(ctx)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", src, diags.Error())
	}
	return v
}

var connOutputs = cty.Object(map[string]cty.Type{"peers": cty.List(cty.String), "missing": cty.List(cty.String)})

// During plan (results nil) a step's result is unknown of the right type:
// expressions over it are unknown ("known after apply"), never guessed and
// never an error; expressions that do not use results stay known.
func TestPlanResultsAreUnknown(t *testing.T) {
	s := NewScope(map[string]cty.Value{"min": cty.NumberIntVal(2)}, []HostInfo{{Name: "gpfs01", Groups: []string{"nsd"}}}, map[string][]string{"nsd": {"gpfs01"}}, ".",
		map[string]cty.Type{"conn": ResultType(connOutputs)})
	ctx := s.Host("gpfs01", nil, cty.NilVal)
	for _, src := range []string{
		`length(step.conn.peers) >= var.min`,
		`step.conn.changed`,
		`"missing: ${join(", ", step.conn.missing)}"`,
		`[for h, r in per_host.conn : h if r.failed]`,
	} {
		if v := evalExpr(t, ctx, src); v.IsWhollyKnown() {
			t.Errorf("%s = %#v during plan, want unknown", src, v)
		}
	}
	if v := evalExpr(t, ctx, `"${host.name} in ${join(",", host.groups)}, min ${var.min}"`); !v.RawEquals(cty.StringVal("gpfs01 in nsd, min 2")) {
		t.Errorf("an expression without results = %#v, want known", v)
	}
	if ty := evalExpr(t, ctx, `step.conn.peers`).Type(); !ty.Equals(cty.List(cty.String)) {
		t.Errorf("unknown peers has type %#v, want list(string)", ty)
	}
}

// During apply the host sees its own result as step.NAME and every host's
// as per_host.NAME; a step that did not run on the host reads as skipped;
// a run_once result is shared.
func TestApplyResults(t *testing.T) {
	ty := ResultType(connOutputs)
	s := NewScope(nil, []HostInfo{{Name: "a"}, {Name: "b"}}, nil, ".", map[string]cty.Type{"conn": ty, "once": ty})
	r := NewResults()
	res := func(host string, failed bool, peers ...string) cty.Value {
		v := SkippedResult(ty, host).AsValueMap()
		v["skipped"], v["failed"] = cty.False, cty.BoolVal(failed)
		ps := []cty.Value{}
		for _, p := range peers {
			ps = append(ps, cty.StringVal(p))
		}
		v["peers"] = cty.ListValEmpty(cty.String)
		if len(ps) > 0 {
			v["peers"] = cty.ListVal(ps)
		}
		return cty.ObjectVal(v)
	}
	r.Set("conn", "a", res("a", false, "b"))
	r.Set("once", "a", res("a", true))
	r.Share("once", "a")

	a := s.Host("a", r, cty.NilVal)
	if v := evalExpr(t, a, `step.conn.peers[0]`); !v.RawEquals(cty.StringVal("b")) {
		t.Errorf("a: step.conn.peers[0] = %#v", v)
	}
	b := s.Host("b", r, cty.NilVal)
	if v := evalExpr(t, b, `step.conn.skipped`); !v.RawEquals(cty.True) {
		t.Errorf("b did not run conn: step.conn.skipped = %#v", v)
	}
	if v := evalExpr(t, b, `step.once.failed`); !v.RawEquals(cty.True) {
		t.Errorf("b sees the run_once result of a: step.once.failed = %#v", v)
	}
	if v := evalExpr(t, b, `keys(per_host.conn)`); !v.RawEquals(cty.ListVal([]cty.Value{cty.StringVal("a")})) {
		t.Errorf("per_host.conn keys = %#v", v)
	}
}
