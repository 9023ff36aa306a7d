package apply

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// jsonResult walks the value; it must give what the JSON round trip gives.
func TestJSONResultMatchesRoundTrip(t *testing.T) {
	huge, _, _ := big.ParseFloat("1e400", 10, 512, big.ToNearestEven)
	for _, v := range []cty.Value{
		cty.ObjectVal(map[string]cty.Value{
			"changed": cty.True, "rc": cty.NumberIntVal(3), "stdout": cty.StringVal("a\nb <&>"),
			"ratio": cty.NumberFloatVal(0.1), "none": cty.NullVal(cty.String),
			"peers": cty.ListVal([]cty.Value{cty.StringVal("n1"), cty.StringVal("n2")}),
			"empty": cty.ListValEmpty(cty.String),
			"set":   cty.SetVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(1)}),
			"tuple": cty.TupleVal([]cty.Value{cty.StringVal("x"), cty.False}),
			"conns": cty.MapVal(map[string]cty.Value{
				"n2": cty.ObjectVal(map[string]cty.Value{"qps": cty.NumberIntVal(2), "up": cty.True}),
			}),
			"nested_null": cty.NullVal(cty.List(cty.String)),
		}),
		cty.EmptyObjectVal,
		// beyond float64: the round trip's error, not an infinity.
		cty.ObjectVal(map[string]cty.Value{"x": cty.NumberVal(huge)}),
	} {
		b, err := ctyjson.Marshal(v, v.Type())
		if err != nil {
			t.Fatal(err)
		}
		var want map[string]any
		if err := json.Unmarshal(b, &want); err != nil {
			want = map[string]any{"error": err.Error()}
		}
		if d := cmp.Diff(want, jsonResult(v)); d != "" {
			t.Errorf("jsonResult(%#v) (-round trip +walk):\n%s", v, d)
		}
	}
	if jsonResult(cty.NilVal) != nil {
		t.Error("jsonResult(NilVal) is not nil")
	}
}

// Values the walk cannot convert take the round trip, with its answer.
func TestJSONResultFallsBackToTheRoundTrip(t *testing.T) {
	unknown := cty.ObjectVal(map[string]cty.Value{"x": cty.UnknownVal(cty.String)})
	if got := jsonResult(unknown); got["error"] == nil {
		t.Errorf("unknown attribute: %v, want the round trip's error", got)
	}
	marked := cty.ObjectVal(map[string]cty.Value{"x": cty.StringVal("s").Mark("sensitive")})
	if got := jsonResult(marked); got["error"] == nil {
		t.Errorf("marked attribute: %v, want the round trip's error", got)
	}
}

// commonJSON gives what the event had before it: the JSON walk of the
// result object, for every status, strings that NFC changes and odd rc.
func TestCommonJSONMatchesResultObject(t *testing.T) {
	ty := eval.ResultType(cty.EmptyObject)
	if !commonOnly(ty) || commonOnly(eval.ResultType(cty.Object(map[string]cty.Type{"passed": cty.Bool}))) {
		t.Fatal("commonOnly does not tell the shell's result type from the assert's")
	}
	statuses := []event.Status{event.OK, event.Changed, event.Failed, event.Skipped, event.Unreachable, event.Warned}
	resps := []module.ApplyResponse{
		{},
		{RC: 1, Stdout: "a\nb <&>", Stderr: "warn"},
		{RC: -1, Stdout: "e\u0301 caf\u00e9", Stderr: "\u0301"},
		{RC: 255, Stdout: "\xff\xfe not utf-8"},
		{RC: 256, Stderr: "beyond a status"},
	}
	for _, st := range statuses {
		for _, resp := range resps {
			for _, msg := range []string{"", "gave up", "A\u030a"} {
				for _, host := range []string{"n1", "o\u0308"} {
					obj := resultValue(ty, host, resp, st, msg)
					want := jsonResult(obj)
					got := commonJSON(newHostState(host, true).name, resp, st, msg)
					if d := cmp.Diff(want, got); d != "" {
						t.Errorf("status %v, %+v, message %q, host %q (-object +direct):\n%s", st, resp, msg, host, d)
					}
					// The result recorded by kind (Results.SetApplied) is
					// the object, whichever way a later step reads it.
					o := outcome{status: st, message: msg, resp: resp}
					if a := eval.AppliedResult(ty, host, appliedOf(o)); !a.RawEquals(obj) {
						t.Errorf("status %v, %+v, message %q, host %q: applied %#v, want %#v", st, resp, msg, host, a, obj)
					}
					rs := eval.NewResults()
					rs.SetApplied("s", host, ty, appliedOf(o))
					if v, ok := rs.Get("s", host); !ok || !v.RawEquals(obj) {
						t.Errorf("status %v, %+v: recorded %#v, want %#v", st, resp, v, obj)
					}
				}
			}
		}
	}
}
