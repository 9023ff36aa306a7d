package eval

import (
	"fmt"
	"testing"

	"github.com/zclconf/go-cty/cty"
)

// Results recorded by kind read as the values they stand for, through
// every way a result is read (Get, step.*, per_host.*, a run_once step's
// shared result), and the latest record of a host wins whichever way it
// was made.
func TestResultsLaterReadAsValues(t *testing.T) {
	ty := ResultType(cty.Object(map[string]cty.Type{"path": cty.String}))
	lazy, eager := NewResults(), NewResults()
	record := func(host string, how int) {
		switch how {
		case 0:
			lazy.SetSkipped("a", host, ty)
			eager.Set("a", host, SkippedResult(ty, host))
		case 1:
			lazy.SetPlanned("a", host, ty, true)
			eager.Set("a", host, PlannedResult(ty, host, true))
		case 2:
			lazy.SetPlanned("a", host, ty, false)
			eager.Set("a", host, PlannedResult(ty, host, false))
		case 3:
			v := PlannedResult(ty, host, true).Mark("x")
			lazy.SetFunc("a", host, func() cty.Value { return v })
			eager.Set("a", host, v)
		case 6:
			a := Applied{Changed: true, RC: 3, Stdout: "out of " + host, Message: "m"}
			lazy.SetApplied("a", host, ty, a)
			eager.Set("a", host, AppliedResult(ty, host, a))
		case 4:
			v := cty.UnknownVal(ty)
			lazy.Set("a", host, v)
			eager.Set("a", host, v)
		default:
			lazy.SetUnknown("a", host, ty)
			eager.Set("a", host, cty.UnknownVal(ty))
		}
	}
	hosts := []string{"n1", "n2", "n3", "n4", "n5", "n6", "n7"}
	for i, h := range hosts {
		record(h, i)
	}
	check := func(when string) {
		t.Helper()
		for _, h := range append(hosts, "n9") {
			lv, lok := lazy.Get("a", h)
			ev, eok := eager.Get("a", h)
			if lok != eok || (lok && !lv.RawEquals(ev)) {
				t.Errorf("%s: Get(a, %s) = %#v %v, want %#v %v", when, h, lv, lok, ev, eok)
			}
			if l, e := lazy.own("a", h, ty), eager.own("a", h, ty); !l.RawEquals(e) {
				t.Errorf("%s: own(a, %s) = %#v, want %#v", when, h, l, e)
			}
		}
		if l, e := lazy.perHost("a", ty), eager.perHost("a", ty); !l.RawEquals(e) {
			t.Errorf("%s: perHost(a) = %#v, want %#v", when, l, e)
		}
	}
	check("first records")
	// Records after a read: a value over a kind, a kind over a value,
	// and the per_host map made again.
	record("n1", 4)
	record("n5", 1)
	record("n4", 3)
	record("n2", 0)
	record("n3", 5)
	record("n6", 6)
	record("n7", 0)
	check("second records")
	if got := lazy.own("a", "n2", ty).GetAttr("skipped"); !got.RawEquals(cty.True) {
		t.Errorf("n2 skipped = %#v", got)
	}
	// A run_once step's result recorded by kind is every host's.
	lazy.SetPlanned("once", "n1", ty, true)
	lazy.Share("once", "n1")
	want := PlannedResult(ty, "n1", true)
	if got := lazy.own("once", "n3", ty); !got.RawEquals(want) {
		t.Errorf("shared planned result on n3 = %#v, want %#v", got, want)
	}
}

// An attribute read from a result recorded by kind is the attribute of the
// value the result stands for, for every attribute of the type.
func TestLaterAttrMatchesValue(t *testing.T) {
	ty := ResultType(cty.Object(map[string]cty.Type{"path": cty.String, "n": cty.List(cty.Number)}))
	for _, k := range []laterKind{laterSkipped, laterPlanned, laterPlannedChange, laterUnknown} {
		l := laterResult{kind: k}
		v := l.value(ty, "n0017")
		for name := range ty.AttributeTypes() {
			got, ok := l.attr(ty, name, "n0017")
			if !ok || !got.RawEquals(v.GetAttr(name)) {
				t.Errorf("kind %d, %s: attr %#v (%v), value's %#v", k, name, got, ok, v.GetAttr(name))
			}
		}
		if _, ok := l.attr(ty, "missing", "n0017"); ok {
			t.Errorf("kind %d: an attribute the type lacks", k)
		}
	}
	for _, a := range []Applied{{}, {Changed: true, RC: 1, Stdout: "a\n", Stderr: "e\u0301", Message: "m"}, {Failed: true, Skipped: true, RC: -1}, {RC: 256}} {
		l := laterResult{kind: laterApplied, applied: &a}
		for _, ty := range []cty.Type{ResultType(cty.EmptyObject), ty} {
			v := l.value(ty, "n0017")
			if !v.Type().Equals(ty) {
				t.Errorf("applied %+v: type %#v, want %#v", a, v.Type(), ty)
			}
			for name := range ty.AttributeTypes() {
				got, ok := l.attr(ty, name, "n0017")
				if !ok || !got.RawEquals(v.GetAttr(name)) {
					t.Errorf("applied %+v, %s: attr %#v (%v), value's %#v", a, name, got, ok, v.GetAttr(name))
				}
			}
			if _, ok := l.attr(ty, "missing", "n0017"); ok {
				t.Errorf("applied: an attribute the type lacks")
			}
		}
	}
	if _, ok := (laterResult{kind: laterMade, make: func() cty.Value { return cty.EmptyObjectVal }}).attr(cty.NilType, "rc", "h"); ok {
		t.Error("a result made by its own function gave an attribute without being made")
	}
}

// RCVal is cty.NumberIntVal for every status, shared or not.
func TestRCVal(t *testing.T) {
	for _, rc := range []int{0, 1, 2, 127, 255, 256, -1, 1 << 40} {
		if got, want := RCVal(rc), cty.NumberIntVal(int64(rc)); !got.RawEquals(want) || !got.Equals(want).True() {
			t.Errorf("RCVal(%d) = %#v, want %#v", rc, got, want)
		}
	}
}

// A step with more later results than parallelSettle is made on every
// core; its per_host map is the one the records stand for.
func TestResultsSettleManyHosts(t *testing.T) {
	ty := ResultType(cty.EmptyObject)
	lazy, eager := NewResults(), NewResults()
	for i := range 3 * parallelSettle {
		host := fmt.Sprintf("n%04d", i)
		switch i % 4 {
		case 0:
			lazy.SetSkipped("a", host, ty)
			eager.Set("a", host, SkippedResult(ty, host))
		case 1:
			a := Applied{RC: i % 3, Stdout: host}
			lazy.SetApplied("a", host, ty, a)
			eager.Set("a", host, AppliedResult(ty, host, a))
		case 2:
			lazy.SetPlanned("a", host, ty, true)
			eager.Set("a", host, PlannedResult(ty, host, true))
		default:
			v := SkippedResult(ty, host).Mark("m")
			lazy.SetFunc("a", host, func() cty.Value { return v })
			eager.Set("a", host, v)
		}
	}
	if l, e := lazy.perHost("a", ty), eager.perHost("a", ty); !l.RawEquals(e) {
		t.Errorf("perHost of %d hosts differs", 3*parallelSettle)
	}
}
