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
