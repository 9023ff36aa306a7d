package eval

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"
)

// The list functions' implementations over the elements of their list,
// and a way to read a list's or a tuple's elements without cty's
// iterator, which makes a new number for every element's index.

// indexKeys holds the numbers 0, 1, ... as cty values, shared: a number is
// an immutable value, and Value.Index only reads its key.
var (
	indexKeys   atomic.Pointer[[]cty.Value]
	indexKeysMu sync.Mutex
)

// indexKeysUpTo returns at least n index keys.
func indexKeysUpTo(n int) []cty.Value {
	if p := indexKeys.Load(); p != nil && len(*p) >= n {
		return *p
	}
	indexKeysMu.Lock()
	defer indexKeysMu.Unlock()
	var keys []cty.Value
	if p := indexKeys.Load(); p != nil {
		if len(*p) >= n {
			return *p
		}
		keys = *p
	}
	size := max(n, 2*len(keys), 1024)
	grown := make([]cty.Value, len(keys), size)
	copy(grown, keys)
	for i := len(keys); i < size; i++ {
		grown = append(grown, cty.NumberIntVal(int64(i)))
	}
	indexKeys.Store(&grown)
	return grown
}

// listElems returns the elements of v, a known, non-null, unmarked list
// or tuple: the values its ElementIterator gives, in order.
func listElems(v cty.Value) []cty.Value {
	n := v.LengthInt()
	if n == 0 {
		return nil
	}
	keys := indexKeysUpTo(n)
	elems := make([]cty.Value, n)
	for i := range elems {
		elems[i] = v.Index(keys[i])
	}
	return elems
}

// foldBools is alltrue (all) or anytrue over unmarked elements: unknown
// when an element before the one that decides is unknown; a null counts
// as false.
func foldBools(all bool, elems []cty.Value) cty.Value {
	for _, v := range elems {
		if !v.IsKnown() {
			return cty.UnknownVal(cty.Bool)
		}
		b := !v.IsNull() && v.True()
		if all && !b {
			return cty.False
		}
		if !all && b {
			return cty.True
		}
	}
	return cty.BoolVal(all)
}

// foldNumbers is f over the known, non-null numbers of unmarked elements:
// unknown when any is unknown, null when f gives NaN.
func foldNumbers(f func([]float64) float64, elems []cty.Value) cty.Value {
	var xs []float64
	for _, v := range elems {
		if !v.IsKnown() {
			return cty.UnknownVal(cty.Number)
		}
		if v.IsNull() {
			continue
		}
		x, _ := v.AsBigFloat().Float64()
		xs = append(xs, x)
	}
	r := f(xs)
	if math.IsNaN(r) {
		return cty.NullVal(cty.Number)
	}
	return cty.NumberFloatVal(r)
}
