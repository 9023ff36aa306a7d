package eval

import (
	"math/big"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

func keyOf(t *testing.T, expr string, host cty.Value) (string, bool) {
	t.Helper()
	e, diags := hclsyntax.ParseExpression([]byte(expr), "x.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	s := NewScope(nil, nil, nil, "", nil)
	s.hostVals["h"] = host
	k, ok := s.Step(nil, Refs{}, cty.NilVal).Key(nil, "h", e.Variables())
	return string(k), ok
}

func hostVal(groups cty.Value, rack cty.Value) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{
		"name": cty.StringVal("n1"), "groups": groups,
		"vars": cty.ObjectVal(map[string]cty.Value{"rack": rack}),
	})
}

// Equal inputs give equal keys; any difference an expression could see
// gives another key; what the key cannot spell exactly gives none.
func TestInputKey(t *testing.T) {
	list := func(ss ...string) cty.Value {
		vs := make([]cty.Value, len(ss))
		for i, s := range ss {
			vs[i] = cty.StringVal(s)
		}
		return cty.ListVal(vs)
	}
	const when = `host.vars.rack != "r00" && contains(host.groups, "g07")`
	a, ok1 := keyOf(t, when, hostVal(list("g07"), cty.StringVal("r01")))
	b, ok2 := keyOf(t, when, hostVal(list("g07"), cty.StringVal("r01")))
	if !ok1 || !ok2 || a != b {
		t.Fatalf("same inputs: %q %v, %q %v", a, ok1, b, ok2)
	}
	// host.name is not read: it does not change the key.
	other := hostVal(list("g07"), cty.StringVal("r01"))
	other = cty.ObjectVal(map[string]cty.Value{"name": cty.StringVal("n2"), "groups": other.GetAttr("groups"), "vars": other.GetAttr("vars")})
	if c, _ := keyOf(t, when, other); c != a {
		t.Errorf("a name the expression does not read changed the key")
	}
	seen := map[string]string{a: "base"}
	for name, h := range map[string]cty.Value{
		"other rack":       hostVal(list("g07"), cty.StringVal("r02")),
		"other groups":     hostVal(list("g07", "g08"), cty.StringVal("r01")),
		"split string":     hostVal(list("g0", "7"), cty.StringVal("r01")),
		"set, not list":    hostVal(cty.SetVal([]cty.Value{cty.StringVal("g07")}), cty.StringVal("r01")),
		"number rack":      hostVal(list("g07"), cty.NumberIntVal(1)),
		"other number":     hostVal(list("g07"), cty.NumberIntVal(2)),
		"null rack":        hostVal(list("g07"), cty.NullVal(cty.String)),
		"bool rack":        hostVal(list("g07"), cty.True),
		"unknown rack":     hostVal(list("g07"), cty.UnknownVal(cty.String)),
		"unknown number":   hostVal(list("g07"), cty.UnknownVal(cty.Number)),
		"null number":      hostVal(list("g07"), cty.NullVal(cty.Number)),
		"low precision":    hostVal(list("g07"), cty.NumberVal(new(big.Float).SetPrec(24).SetInt64(1))),
		"fraction":         hostVal(list("g07"), cty.NumberFloatVal(0.5)),
		"separator inside": hostVal(list("g07"), cty.StringVal("r01;s3:x")),
	} {
		k, ok := keyOf(t, when, h)
		if !ok {
			t.Errorf("%s: no key", name)
			continue
		}
		if prev, dup := seen[k]; dup {
			t.Errorf("%s: same key as %s: %q", name, prev, k)
		}
		seen[k] = name
	}
	for name, h := range map[string]cty.Value{
		"marked":  hostVal(list("g07"), cty.StringVal("r01").Mark("sensitive")),
		"refined": hostVal(list("g07"), cty.UnknownVal(cty.String).RefineNotNull()),
	} {
		if _, ok := keyOf(t, when, h); ok {
			t.Errorf("%s: a key for a value it cannot spell", name)
		}
	}
	if _, ok := keyOf(t, `host.missing`, hostVal(list("g"), cty.StringVal("r"))); ok {
		t.Error("a traversal that does not resolve gave a key")
	}
}
