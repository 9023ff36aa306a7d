package eval

import (
	"math"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2/ext/tryfunc"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// Functions returns the function library of runbook expressions: the
// Terraform-compatible subset of cty's stdlib plus a few statistics helpers
// (sum, median, mean) that acceptance thresholds need.
func Functions() map[string]function.Function {
	fs := map[string]function.Function{
		"abs": stdlib.AbsoluteFunc, "ceil": stdlib.CeilFunc, "floor": stdlib.FloorFunc,
		"max": stdlib.MaxFunc, "min": stdlib.MinFunc, "parseint": stdlib.ParseIntFunc,
		"pow": stdlib.PowFunc, "signum": stdlib.SignumFunc, "log": stdlib.LogFunc,
		"chomp": stdlib.ChompFunc, "format": stdlib.FormatFunc, "formatlist": stdlib.FormatListFunc,
		"indent": stdlib.IndentFunc, "join": stdlib.JoinFunc, "lower": stdlib.LowerFunc,
		"regex": stdlib.RegexFunc, "regexall": stdlib.RegexAllFunc, "replace": stdlib.ReplaceFunc,
		"split": stdlib.SplitFunc, "strrev": stdlib.ReverseFunc, "substr": stdlib.SubstrFunc,
		"title": stdlib.TitleFunc, "trim": stdlib.TrimFunc, "trimprefix": stdlib.TrimPrefixFunc,
		"trimsuffix": stdlib.TrimSuffixFunc, "trimspace": stdlib.TrimSpaceFunc, "upper": stdlib.UpperFunc,
		"chunklist": stdlib.ChunklistFunc, "coalesce": stdlib.CoalesceFunc, "coalescelist": stdlib.CoalesceListFunc,
		"compact": stdlib.CompactFunc, "concat": stdlib.ConcatFunc, "contains": stdlib.ContainsFunc,
		"distinct": stdlib.DistinctFunc, "element": stdlib.ElementFunc, "flatten": stdlib.FlattenFunc,
		"index": stdlib.IndexFunc, "keys": stdlib.KeysFunc, "length": stdlib.LengthFunc,
		"lookup": stdlib.LookupFunc, "merge": stdlib.MergeFunc, "range": stdlib.RangeFunc,
		"reverse": stdlib.ReverseListFunc, "setintersection": stdlib.SetIntersectionFunc,
		"setproduct": stdlib.SetProductFunc, "setsubtract": stdlib.SetSubtractFunc,
		"setunion": stdlib.SetUnionFunc, "slice": stdlib.SliceFunc, "sort": stdlib.SortFunc,
		"values": stdlib.ValuesFunc, "zipmap": stdlib.ZipmapFunc,
		"jsonencode": stdlib.JSONEncodeFunc, "jsondecode": stdlib.JSONDecodeFunc,
		"csvdecode": stdlib.CSVDecodeFunc, "formatdate": stdlib.FormatDateFunc,
		"try": tryfunc.TryFunc, "can": tryfunc.CanFunc,
		"tostring": makeToFunc(cty.String), "tonumber": makeToFunc(cty.Number),
		"tobool": makeToFunc(cty.Bool), "tolist": makeToFunc(cty.List(cty.DynamicPseudoType)),
		"toset": makeToFunc(cty.Set(cty.DynamicPseudoType)), "tomap": makeToFunc(cty.Map(cty.DynamicPseudoType)),
		"startswith": strPredicate(strings.HasPrefix), "endswith": strPredicate(strings.HasSuffix),
		"strcontains": strPredicate(strings.Contains),
	}
	folds := listFolds()
	for name, f := range listFuncs() {
		fs[name] = listArg(f, folds[name])
	}
	return fs
}

// listFuncs are the functions of one list argument that listArg takes a
// tuple into cheaply.
func listFuncs() map[string]function.Function {
	return map[string]function.Function{
		"alltrue": boolFold(true), "anytrue": boolFold(false),
		"sum": numbersFunc(sumOf), "mean": numbersFunc(meanOf), "median": numbersFunc(medianOf),
	}
}

// listFolds are listFuncs' implementations over the unmarked elements of
// their list: what each function's Impl computes.
func listFolds() map[string]func([]cty.Value) cty.Value {
	return map[string]func([]cty.Value) cty.Value{
		"alltrue": func(e []cty.Value) cty.Value { return foldBools(true, e) },
		"anytrue": func(e []cty.Value) cty.Value { return foldBools(false, e) },
		"sum":     func(e []cty.Value) cty.Value { return foldNumbers(sumOf, e) },
		"mean":    func(e []cty.Value) cty.Value { return foldNumbers(meanOf, e) },
		"median":  func(e []cty.Value) cty.Value { return foldNumbers(medianOf, e) },
	}
}

func sumOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return sumOf(xs) / float64(len(xs))
}

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func makeToFunc(want cty.Type) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "v", Type: cty.DynamicPseudoType, AllowNull: true, AllowUnknown: true, AllowDynamicType: true}},
		Type: func(args []cty.Value) (cty.Type, error) {
			if want.IsPrimitiveType() {
				return want, nil
			}
			ty := args[0].Type()
			if ty == cty.DynamicPseudoType {
				return want, nil
			}
			switch {
			case want.IsListType():
				if ty.IsTupleType() || ty.IsSetType() || ty.IsListType() {
					et, _ := convert.UnifyUnsafe(elemTypes(ty))
					if et == cty.NilType {
						return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to list: elements have different types", ty.FriendlyName())
					}
					return cty.List(et), nil
				}
			case want.IsSetType():
				if ty.IsTupleType() || ty.IsSetType() || ty.IsListType() {
					et, _ := convert.UnifyUnsafe(elemTypes(ty))
					if et == cty.NilType {
						return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to set", ty.FriendlyName())
					}
					return cty.Set(et), nil
				}
			case want.IsMapType():
				if ty.IsObjectType() || ty.IsMapType() {
					var ets []cty.Type
					if ty.IsMapType() {
						ets = []cty.Type{ty.ElementType()}
					} else {
						for _, at := range ty.AttributeTypes() {
							ets = append(ets, at)
						}
					}
					et, _ := convert.UnifyUnsafe(ets)
					if et == cty.NilType {
						return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to map", ty.FriendlyName())
					}
					return cty.Map(et), nil
				}
			}
			return cty.NilType, function.NewArgErrorf(0, "cannot convert %s to %s", ty.FriendlyName(), want.FriendlyName())
		},
		Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
			v, err := convert.Convert(args[0], retType)
			if err != nil {
				return cty.NilVal, function.NewArgError(0, err)
			}
			return v, nil
		},
	})
}

func elemTypes(ty cty.Type) []cty.Type {
	switch {
	case ty.IsTupleType():
		if len(ty.TupleElementTypes()) == 0 {
			return []cty.Type{cty.DynamicPseudoType}
		}
		return ty.TupleElementTypes()
	case ty.IsListType(), ty.IsSetType():
		return []cty.Type{ty.ElementType()}
	}
	return nil
}

func strPredicate(f func(s, sub string) bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}, {Name: "substr", Type: cty.String}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return cty.BoolVal(f(args[0].AsString(), args[1].AsString())), nil
		},
	})
}

func boolFold(all bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return foldBools(all, listElems(args[0])), nil
		},
	})
}

func numbersFunc(f func([]float64) float64) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Number)}},
		Type:   function.StaticReturnType(cty.Number),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return foldNumbers(f, listElems(args[0])), nil
		},
	})
}
