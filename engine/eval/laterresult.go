package eval

import "github.com/zclconf/go-cty/cty"

// laterResult is a step result recorded by what it is, not as a value
// (Results.SetSkipped, SetPlanned, SetUnknown, SetApplied, SetFunc): the
// value depends only on the step's result type (kept once per step), the
// host, the kind and what an applied result is made of, so it is made when
// first read.
type laterResult struct {
	kind    laterKind
	make    func() cty.Value // laterMade
	applied *Applied         // laterApplied
}

type laterKind uint8

const (
	laterSkipped laterKind = iota
	laterPlanned
	laterPlannedChange
	laterUnknown // cty.UnknownVal of the result type
	laterMade    // made by its own function (Results.SetFunc)
	laterApplied // AppliedResult of applied (Results.SetApplied)
)

func (l laterResult) value(ty cty.Type, host string) cty.Value {
	switch l.kind {
	case laterSkipped:
		return SkippedResult(ty, host)
	case laterUnknown:
		return cty.UnknownVal(ty)
	case laterMade:
		return l.make()
	case laterApplied:
		return AppliedResult(ty, host, *l.applied)
	}
	return PlannedResult(ty, host, l.kind == laterPlannedChange)
}

// attr returns attribute name of the value, without making the value.
// ok is false when the result has no such attribute or is made by its own
// function.
func (l laterResult) attr(ty cty.Type, name, host string) (cty.Value, bool) {
	if l.kind == laterMade || !ty.IsObjectType() || !ty.HasAttribute(name) {
		return cty.NilVal, false
	}
	switch l.kind {
	case laterSkipped:
		return skippedAttr(ty, name, host), true
	case laterApplied:
		return l.applied.attr(ty, name, host)
	case laterUnknown:
		return cty.UnknownVal(ty.AttributeType(name)), true
	}
	switch name {
	case "changed":
		return cty.BoolVal(l.kind == laterPlannedChange), true
	case "skipped":
		return cty.False, true
	case "host":
		return cty.StringVal(host), true
	}
	return cty.UnknownVal(ty.AttributeType(name)), true
}

// skippedAttr is attribute name of SkippedResult(ty, host).
func skippedAttr(ty cty.Type, name, host string) cty.Value {
	switch name {
	case "changed", "failed":
		return cty.False
	case "skipped":
		return cty.True
	case "rc":
		return cty.NullVal(cty.Number)
	case "stdout", "stderr", "message":
		return cty.StringVal("")
	case "host":
		return cty.StringVal(host)
	}
	return cty.NullVal(ty.AttributeType(name))
}

// PlannedResult is the result later steps see of a step a module planned
// on host: whether it changes is known, skipped is false, the host is
// known; what it outputs is not (apply has not run).
func PlannedResult(ty cty.Type, host string, changed bool) cty.Value {
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for k, t := range ty.AttributeTypes() {
		attrs[k] = cty.UnknownVal(t)
	}
	attrs["changed"] = cty.BoolVal(changed)
	attrs["skipped"] = cty.False
	attrs["host"] = cty.StringVal(host)
	return cty.ObjectVal(attrs)
}
