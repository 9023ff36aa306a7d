package apply

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

type typedInner struct {
	Port int     `cty:"port"`
	Tag  *string `cty:"tag"`
}

type typedArgs struct {
	Command string            `cty:"command"`
	Check   *string           `cty:"check"`
	Env     map[string]string `cty:"env"`
	Peers   []string          `cty:"peers"`
	Inner   typedInner        `cty:"inner"`
	Any     cty.Value         `cty:"any"`
	Count   int               `cty:"count"`
	Ignored string
}

// kindsModule is cmd with an argument struct of every field kind the
// modules use.
type kindsModule struct{ cmdModule }

func (kindsModule) NewArgs() any { return new(typedArgs) }

// splitTyped gives what module.DecodeTyped gives, struct and error, on
// every host and in any order of hosts, for per-host arguments of each
// field kind, null ones, and ones that do not decode.
func TestSplitTypedDecodesAsDecodeTyped(t *testing.T) {
	str := cty.StringVal
	inner := func(port int64, tag cty.Value) cty.Value {
		return cty.ObjectVal(map[string]cty.Value{"port": cty.NumberIntVal(port), "tag": tag})
	}
	shared := map[string]cty.Value{
		"command": str("run"), "check": cty.NullVal(cty.String),
		"env":   cty.MapVal(map[string]cty.Value{"A": str("1")}),
		"peers": cty.ListVal([]cty.Value{str("n1"), str("n2")}),
		"inner": inner(1, str("t")), "any": cty.True, "count": cty.NumberIntVal(2),
	}
	hostVals := map[string][]cty.Value{
		"command": {str("echo n1"), str("echo n2"), str(""), str("e\u0301"), cty.NullVal(cty.String)},
		"check":   {str("test -e /a"), cty.NullVal(cty.String), str("x"), str("é"), str("")},
		"env":     {cty.MapVal(map[string]cty.Value{"H": str("n1")}), cty.NullVal(cty.Map(cty.String)), cty.MapValEmpty(cty.String)},
		"peers":   {cty.ListVal([]cty.Value{str("a")}), cty.ListValEmpty(cty.String), cty.NullVal(cty.List(cty.String))},
		"inner":   {inner(7, cty.NullVal(cty.String)), inner(8, str("u")), inner(9, str("v"))},
		"any":     {str("s"), cty.NumberIntVal(3), cty.ListVal([]cty.Value{cty.False})},
		"count":   {cty.NumberIntVal(5), cty.NumberFloatVal(1.5), cty.NullVal(cty.Number)},
	}
	for attr, vals := range hostVals {
		st := newSplitTyped(kindsModule{}, []string{attr})
		if st == nil {
			t.Fatalf("%s: no split for a struct naming it", attr)
		}
		// Each host's value, then again in another order: the base is
		// whichever host decoded first.
		order := []int{0, 1, 2, 1, 0, 2, 0}
		if len(vals) > 3 {
			order = append(order, 3, 4, 0, 4, 3)
		}
		for _, i := range order {
			attrs := map[string]cty.Value{}
			for k, v := range shared {
				attrs[k] = v
			}
			attrs[attr] = vals[i]
			args := cty.ObjectVal(attrs)
			want, wantErr := module.DecodeTyped(kindsModule{}, args)
			got, gotErr := st.decode(args)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Errorf("%s = %#v: error %v, DecodeTyped %v", attr, vals[i], gotErr, wantErr)
				continue
			}
			if d := cmp.Diff(want, got, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); d != "" {
				t.Errorf("%s = %#v (-DecodeTyped +split):\n%s", attr, vals[i], d)
			}
		}
		if st.base.Load() == nil {
			t.Errorf("%s: no host decoded whole", attr)
		}
	}
	// A marked value in a field gocty decodes (not a plain string) is
	// DecodeTyped's error naming it, not gocty's panic, whether or not
	// the split has a base yet.
	for _, attr := range []string{"inner", "env", "count", "check"} {
		st := newSplitTyped(kindsModule{}, []string{attr})
		attrs := map[string]cty.Value{}
		for k, v := range shared {
			attrs[k] = v
		}
		if _, err := st.decode(cty.ObjectVal(attrs)); err != nil {
			t.Fatalf("%s: unmarked arguments: %v", attr, err)
		}
		marked := map[string]cty.Value{
			"inner": inner(7, str("secret").Mark("sensitive")),
			"env":   cty.MapVal(map[string]cty.Value{"H": str("secret").Mark("sensitive")}),
			"count": cty.NumberIntVal(5).Mark("sensitive"),
			"check": str("secret").Mark("sensitive"),
		}
		attrs[attr] = marked[attr]
		args := cty.ObjectVal(attrs)
		_, wantErr := module.DecodeTyped(kindsModule{}, args)
		got, gotErr := st.decode(args)
		if wantErr == nil || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || got != nil {
			t.Errorf("%s marked: split %v, %v; DecodeTyped's error %v", attr, got, gotErr, wantErr)
		}
	}
	if newSplitTyped(kindsModule{}, []string{"missing"}) != nil {
		t.Error("split for an argument the struct does not name")
	}
	if newSplitTyped(cmdModule{}, []string{"cmd"}) != nil {
		t.Error("split for a module without an argument struct")
	}
}
