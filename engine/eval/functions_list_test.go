package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// oldListFuncs are alltrue, anytrue, sum, mean and median as they were
// before their elements were read by index and folded without f.Call:
// cty's iterator, cty's marks handling.
func oldListFuncs() map[string]function.Function {
	boolFold := func(all bool) function.Function {
		return function.New(&function.Spec{
			Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
			Type:   function.StaticReturnType(cty.Bool),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				for it := args[0].ElementIterator(); it.Next(); {
					_, v := it.Element()
					if !v.IsKnown() {
						return cty.UnknownVal(cty.Bool), nil
					}
					b := !v.IsNull() && v.True()
					if all && !b {
						return cty.False, nil
					}
					if !all && b {
						return cty.True, nil
					}
				}
				return cty.BoolVal(all), nil
			},
		})
	}
	numbers := func(f func([]float64) float64) function.Function {
		return function.New(&function.Spec{
			Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Number)}},
			Type:   function.StaticReturnType(cty.Number),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				var xs []float64
				for it := args[0].ElementIterator(); it.Next(); {
					_, v := it.Element()
					if !v.IsKnown() {
						return cty.UnknownVal(cty.Number), nil
					}
					if v.IsNull() {
						continue
					}
					x, _ := v.AsBigFloat().Float64()
					xs = append(xs, x)
				}
				r := f(xs)
				if r != r {
					return cty.NullVal(cty.Number), nil
				}
				return cty.NumberFloatVal(r), nil
			},
		})
	}
	return map[string]function.Function{
		"alltrue": boolFold(true), "anytrue": boolFold(false),
		"sum": numbers(sumOf), "mean": numbers(meanOf), "median": numbers(medianOf),
	}
}

// genListElem is an element of a list function's argument: a bool or a
// number, now and then unknown, null, marked or a string.
func genListElem(c chooser, num bool) cty.Value {
	var v cty.Value
	if num {
		v = genNumber(c)
	} else {
		v = cty.BoolVal(c.IntN(3) != 0)
	}
	switch c.IntN(14) {
	case 0:
		return cty.UnknownVal(v.Type())
	case 1:
		return cty.NullVal(v.Type())
	case 2:
		return v.Mark(sensitive)
	case 3:
		return cty.StringVal("true")
	case 4:
		return cty.UnknownVal(v.Type()).Mark(sensitive)
	}
	return v
}

func genListArg(c chooser) cty.Value {
	num := c.IntN(2) == 0
	n := c.IntN(6)
	if c.IntN(40) == 0 {
		n = 1000 + c.IntN(100) // beyond the first table of index keys too
	}
	elems := make([]cty.Value, n)
	for i := range elems {
		elems[i] = genListElem(c, num)
	}
	var v cty.Value
	switch c.IntN(6) {
	case 0:
		if l, err := convertList(elems); err == nil {
			v = l
		} else {
			v = cty.TupleVal(elems)
		}
	case 1:
		v = cty.NullVal(cty.List(cty.Bool))
	case 2:
		v = cty.UnknownVal(cty.List(cty.Number))
	default:
		v = cty.TupleVal(elems)
	}
	return mark(c, v, 8)
}

func convertList(elems []cty.Value) (v cty.Value, err error) {
	defer func() {
		if recover() != nil {
			err = errNotList
		}
	}()
	if len(elems) == 0 {
		return cty.ListValEmpty(cty.Bool), nil
	}
	return cty.ListVal(elems), nil
}

var errNotList = function.NewArgErrorf(0, "not a list")

// TestListFuncsMatchTheirOldSelves holds alltrue, anytrue, sum, mean and
// median, as Functions gives them, to the old implementations called as
// hcl calls a function of a list, over random arguments.
func TestListFuncsMatchTheirOldSelves(t *testing.T) {
	old := Functions()
	for name, f := range oldListFuncs() {
		old[name] = f
	}
	fs := Functions()
	r := rand.New(rand.NewPCG(1, 15))
	for i := range 1500 {
		name := []string{"alltrue", "anytrue", "sum", "mean", "median"}[r.IntN(5)]
		src := name + "(v)"
		if r.IntN(4) == 0 {
			src = name + "([for x in v : x])"
		}
		expr, diags := hclsyntax.ParseExpression([]byte(src), "t.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		vars := map[string]cty.Value{"v": genListArg(r)}
		want, wantDiags := expr.Value(&hcl.EvalContext{Variables: vars, Functions: old})
		got, gotDiags := expr.Value(&hcl.EvalContext{Variables: vars, Functions: fs})
		if !got.RawEquals(want) || got.GoString() != want.GoString() || !sameDiags(gotDiags, wantDiags) {
			t.Fatalf("case %d, %s over %#v:\n got %#v %v\nwant %#v %v", i, src, vars["v"], got, gotDiags, want, wantDiags)
		}
	}
}

// TestListElemsIsTheIterator: listElems gives what ElementIterator gives,
// beyond the first table of keys and from goroutines at once (-race).
func TestListElemsIsTheIterator(t *testing.T) {
	done := make(chan struct{})
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for _, n := range []int{0, 1, 1023, 1024, 1025, 3000 + g*1000} {
				elems := make([]cty.Value, n)
				for i := range elems {
					elems[i] = RCVal(i % 256)
				}
				for _, v := range []cty.Value{cty.TupleVal(elems), listOrEmpty(elems)} {
					got := listElems(v)
					i := 0
					for it := v.ElementIterator(); it.Next(); i++ {
						_, e := it.Element()
						if !got[i].RawEquals(e) {
							t.Errorf("n=%d: element %d is %#v, the iterator's %#v", n, i, got[i], e)
							return
						}
					}
					if i != len(got) {
						t.Errorf("n=%d: %d elements, the iterator's %d", n, len(got), i)
					}
				}
			}
		}()
	}
	for range 4 {
		<-done
	}
}

func listOrEmpty(elems []cty.Value) cty.Value {
	if len(elems) == 0 {
		return cty.ListValEmpty(cty.Number)
	}
	return cty.ListVal(elems)
}
