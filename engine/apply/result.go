package apply

import (
	"encoding/json"
	"math"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	ctyjson "github.com/zclconf/go-cty/cty/json"

	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// outcome is what one host's execution of a step produced.
type outcome struct {
	status  event.Status
	message string
	resp    module.ApplyResponse
	value   cty.Value // the step result object
	// gaveUp: until was still false after the last attempt.
	gaveUp bool
}

// fail makes o a failure with message msg and nothing else.
func (o *outcome) fail(msg string) {
	*o = outcome{}
	o.status, o.message = event.Failed, msg
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// resultValue builds the step result object of type ty.
func resultValue(ty cty.Type, host string, resp module.ApplyResponse, status event.Status, message string) cty.Value {
	outTy := ty.AttributeTypes()
	attrs := make(map[string]cty.Value, len(outTy))
	var outs map[string]cty.Value
	if resp.Outputs != cty.NilVal && !resp.Outputs.IsNull() && resp.Outputs.IsKnown() && resp.Outputs.Type().IsObjectType() {
		outs = resp.Outputs.AsValueMap()
	}
	for k, t := range outTy {
		if _, common := eval.CommonResultAttrs[k]; common {
			continue
		}
		v, ok := outs[k]
		if !ok {
			attrs[k] = cty.NullVal(t)
			continue
		}
		cv, err := convert.Convert(v, t)
		if err != nil {
			cv = cty.NullVal(t)
		}
		attrs[k] = cv
	}
	attrs["changed"] = cty.BoolVal(status == event.Changed)
	attrs["failed"] = cty.BoolVal(status == event.Failed || status == event.Unreachable)
	attrs["skipped"] = cty.BoolVal(status == event.Skipped)
	attrs["rc"] = eval.RCVal(resp.RC)
	attrs["stdout"] = cty.StringVal(resp.Stdout)
	attrs["stderr"] = cty.StringVal(resp.Stderr)
	attrs["message"] = cty.StringVal(message)
	attrs["host"] = cty.StringVal(host)
	return cty.ObjectVal(attrs)
}

// commonOnly reports whether result type ty has the common attributes
// only (a module without outputs of its own, like shell).
func commonOnly(ty cty.Type) bool {
	return ty.IsObjectType() && len(ty.AttributeTypes()) == len(eval.CommonResultAttrs)
}

// commonJSON is jsonResult(resultValue(ty, host, resp, status, message))
// for a result type of the common attributes only (commonOnly), made
// without the cty object: strings NFC-normalised as cty.StringVal does,
// rc as a float64 as the walk gives it. host is the host's name already
// normalised (hostState.name).
func commonJSON(host any, resp module.ApplyResponse, status event.Status, message string) map[string]any {
	return map[string]any{
		"changed": status == event.Changed,
		"failed":  status == event.Failed || status == event.Unreachable,
		"skipped": status == event.Skipped,
		"rc":      float64(resp.RC),
		"stdout":  cty.NormalizeString(resp.Stdout),
		"stderr":  cty.NormalizeString(resp.Stderr),
		"message": cty.NormalizeString(message),
		"host":    host,
	}
}

// jsonResult converts a result object to plain JSON values for events:
// map[string]any, []any, string, float64, bool and nil, as encoding/json
// would decode the object's JSON form. It walks the value directly (a
// result per host-step made a JSON round trip costly); values that walk
// cannot convert exactly (unknown, marked, capsules, numbers beyond
// float64) take the round trip.
func jsonResult(v cty.Value) map[string]any {
	if v == cty.NilVal {
		return nil
	}
	if v.Type().IsObjectType() {
		if m, ok := plain(v); ok && m != nil {
			return m.(map[string]any)
		}
	}
	b, err := ctyjson.Marshal(v, v.Type())
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return map[string]any{"error": err.Error()}
	}
	return m
}

// plain converts a value; false when it cannot do so exactly (an unknown
// or marked value anywhere in it, a capsule, a number beyond float64).
func plain(v cty.Value) (any, bool) {
	if v.IsMarked() || !v.IsKnown() {
		return nil, false
	}
	if v.IsNull() {
		return nil, true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return v.AsString(), true
	case ty == cty.Bool:
		return v.True(), true
	case ty == cty.Number:
		f, _ := v.AsBigFloat().Float64()
		if math.IsInf(f, 0) {
			return nil, false
		}
		return f, true
	case ty.IsObjectType():
		// By attribute name: an object's ElementIterator sorts the names
		// first, and a map needs no order.
		m := make(map[string]any, len(ty.AttributeTypes()))
		for k := range ty.AttributeTypes() {
			pe, ok := plain(v.GetAttr(k))
			if !ok {
				return nil, false
			}
			m[k] = pe
		}
		return m, true
	case ty.IsMapType():
		m := make(map[string]any, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			pe, ok := plain(e)
			if !ok {
				return nil, false
			}
			m[k.AsString()] = pe
		}
		return m, true
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		l := make([]any, 0, v.LengthInt())
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			pe, ok := plain(e)
			if !ok {
				return nil, false
			}
			l = append(l, pe)
		}
		return l, true
	}
	return nil, false
}

// checksFor converts a module's checks for a host whose step ended with
// status st. The step's status is the verdict that counts: where the
// runbook kept a step from failing (failed_when, or a diagnosis step whose
// findings a later assertion judges), its failing checks are recorded as
// "info", and on a step that only warned, as "warn".
func checksFor(step string, cs []module.Check, st event.Status) []event.Check {
	out := checksOf(step, cs)
	for i := range out {
		if out[i].Verdict != "fail" {
			continue
		}
		switch st {
		case event.OK, event.Changed, event.Skipped:
			out[i].Verdict = "info"
		case event.Warned:
			out[i].Verdict = "warn"
		}
	}
	return out
}

// checksOf converts a module's checks; an unnamed check takes the step's
// name.
func checksOf(step string, cs []module.Check) []event.Check {
	if len(cs) == 0 {
		return nil
	}
	out := make([]event.Check, len(cs))
	for i, c := range cs {
		out[i] = event.Check(c)
		if out[i].Name == "" {
			out[i].Name = step
		}
	}
	return out
}
