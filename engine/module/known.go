package module

import (
	"github.com/zclconf/go-cty/cty"
)

// DecodeKnown is DecodeArgs for Validate, which sees arguments that may be
// unknown until earlier steps have run. It decodes args into a new T with
// every argument that is not wholly known at its zero value, and returns the
// names of the top-level arguments that are known and not null: Validate
// checks those on the typed struct instead of reading each attribute by
// hand.
func DecodeKnown[T any](args cty.Value) (*T, map[string]bool, error) {
	known := map[string]bool{}
	if args.IsNull() || !args.IsKnown() || !args.Type().IsObjectType() {
		return new(T), known, nil
	}
	attrs := map[string]cty.Value{}
	for name, ty := range args.Type().AttributeTypes() {
		v := args.GetAttr(name)
		switch {
		case !v.IsWhollyKnown():
			attrs[name] = zeroOf(ty)
		case v.IsNull():
			attrs[name] = v // optional arguments decode into pointer fields
		default:
			known[name] = true
			attrs[name] = v
		}
	}
	out, err := DecodeArgs[T](cty.ObjectVal(attrs))
	if err != nil {
		return nil, nil, err
	}
	return out, known, nil
}

// zeroOf is the zero value of ty: "" , 0, false, empty collections, and
// objects and tuples of zero values; null for types without one (dynamic),
// which decode into pointer and interface fields.
func zeroOf(ty cty.Type) cty.Value {
	switch {
	case ty == cty.String:
		return cty.StringVal("")
	case ty == cty.Number:
		return cty.Zero
	case ty == cty.Bool:
		return cty.False
	case ty.IsListType():
		return cty.ListValEmpty(ty.ElementType())
	case ty.IsSetType():
		return cty.SetValEmpty(ty.ElementType())
	case ty.IsMapType():
		return cty.MapValEmpty(ty.ElementType())
	case ty.IsObjectType():
		attrs := map[string]cty.Value{}
		for n, at := range ty.AttributeTypes() {
			attrs[n] = zeroOf(at)
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType():
		var elems []cty.Value
		for _, et := range ty.TupleElementTypes() {
			elems = append(elems, zeroOf(et))
		}
		if len(elems) == 0 {
			return cty.EmptyTupleVal
		}
		return cty.TupleVal(elems)
	}
	return cty.NullVal(ty)
}
