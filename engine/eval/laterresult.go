package eval

import "github.com/zclconf/go-cty/cty"

// laterResult is a step result recorded by what it is, not as a value
// (Results.SetSkipped, Results.SetPlanned): the value depends only on the
// result type, the host and the kind, so it is made when first read.
type laterResult struct {
	ty   cty.Type
	kind laterKind
	make func() cty.Value // laterMade
}

type laterKind uint8

const (
	laterSkipped laterKind = iota
	laterPlanned
	laterPlannedChange
	laterMade // made by its own function (Results.SetFunc)
)

func (l laterResult) value(host string) cty.Value {
	switch l.kind {
	case laterSkipped:
		return SkippedResult(l.ty, host)
	case laterMade:
		return l.make()
	}
	return PlannedResult(l.ty, host, l.kind == laterPlannedChange)
}

// attr returns attribute name of the value, without making the value.
// ok is false when the result has no such attribute or is made by its own
// function.
func (l laterResult) attr(name, host string) (cty.Value, bool) {
	if l.kind == laterMade || !l.ty.IsObjectType() || !l.ty.HasAttribute(name) {
		return cty.NilVal, false
	}
	if l.kind == laterSkipped {
		return skippedAttr(l.ty, name, host), true
	}
	switch name {
	case "changed":
		return cty.BoolVal(l.kind == laterPlannedChange), true
	case "skipped":
		return cty.False, true
	case "host":
		return cty.StringVal(host), true
	}
	return cty.UnknownVal(l.ty.AttributeType(name)), true
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
