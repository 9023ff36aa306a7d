package eval

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// listArg returns f, a function of one parameter of type list(T) with T
// primitive whose return type depends only on the argument's type
// (alltrue, sum, ...), with a cheaper way in for a tuple all of
// whose elements are of type T: what a for expression over per_host gives
// (alltrue([for h, r in per_host.x : r.rc == 0])).
//
// hcl converts such a tuple to list(T) before the call, and cty's
// conversion unifies the element types with a sort that compares every
// pair of them: 500,000 type comparisons for 1,000 hosts, whatever the
// types. When every element is already of type T that conversion comes to
// cty.ListVal of the same elements, which is what listArg makes directly;
// any other value (a set, a list, a tuple of mixed types, null, unknown or
// marked at the top) is converted by cty as hcl would. The result is
// always f's own, called with that list: values, unknowns, marks and
// f's errors are f's. A value that does not convert is reported as f's
// argument error: the diagnostic's summary, detail and ranges are the
// ones hcl gives for a failed conversion (only its FunctionCallDiagExtra
// then also carries the error).
//
// fold, when not nil, is what f's Impl computes from the elements of its
// list: for a tuple listArg takes directly none of whose elements is
// marked, listArg gives fold's value without making the list and without
// f.Call, whose marks handling walks the list (an allocation or more per
// element) to find none. That is f.Call's value: the list is known, not
// null, of f's parameter type and has no marks, so f.Call comes to f's
// Impl.
func listArg(f function.Function, fold func([]cty.Value) cty.Value) function.Function {
	params := f.Params()
	if len(params) != 1 || f.VarParam() != nil {
		panic("listArg: not a function of one parameter")
	}
	want := params[0].Type
	if !want.IsListType() || !want.ElementType().IsPrimitiveType() {
		panic("listArg: the parameter is not a list of a primitive type")
	}
	ety := want.ElementType()
	// The argument reaches f untouched but for the conversion: f decides
	// about null, unknown, dynamic and marked values.
	p := params[0]
	p.Type = cty.DynamicPseudoType
	p.AllowNull, p.AllowUnknown, p.AllowDynamicType, p.AllowMarked = true, true, true, true
	arg := func(args []cty.Value) ([]cty.Value, error) {
		v, err := toList(args[0], want, ety)
		if err != nil {
			return nil, function.NewArgError(0, err)
		}
		return []cty.Value{v}, nil
	}
	return function.New(&function.Spec{
		Description: f.Description(),
		Params:      []function.Parameter{p},
		Type: func(args []cty.Value) (cty.Type, error) {
			if direct(args[0], ety) {
				// The list is made once, for the call; its type is want.
				return f.ReturnTypeForValues([]cty.Value{cty.UnknownVal(want)})
			}
			conv, err := arg(args)
			if err != nil {
				return cty.NilType, err
			}
			return f.ReturnTypeForValues(conv)
		},
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if fold != nil && direct(args[0], ety) {
				if elems := listElems(args[0]); !anyMarked(elems) {
					return fold(elems), nil
				}
			}
			conv, err := arg(args)
			if err != nil {
				return cty.NilVal, err
			}
			return f.Call(conv)
		},
	})
}

// toList converts v to want, list(ety), as convert.Convert does: a known,
// unmarked tuple of elements all of type ety becomes the list of those
// elements without unifying their types.
func toList(v cty.Value, want, ety cty.Type) (cty.Value, error) {
	if !direct(v, ety) {
		return convert.Convert(v, want)
	}
	return cty.ListVal(listElems(v)), nil
}

func anyMarked(vs []cty.Value) bool {
	for _, v := range vs {
		if v.IsMarked() {
			return true
		}
	}
	return false
}

// direct reports whether v is a known, non-null, unmarked, non-empty tuple
// of elements all of type ety: one toList takes into a list itself.
func direct(v cty.Value, ety cty.Type) bool {
	ty := v.Type()
	if !ty.IsTupleType() || !v.IsKnown() || v.IsNull() || v.IsMarked() {
		return false
	}
	etys := ty.TupleElementTypes()
	if len(etys) == 0 {
		return false
	}
	for _, t := range etys {
		if !t.Equals(ety) {
			return false
		}
	}
	return true
}
