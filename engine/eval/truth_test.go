package eval

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// True gives cty's answer for every known bool, however it was made.
func TestTrueMatchesCty(t *testing.T) {
	notFalse, _ := stdlib.Not(cty.False)
	and, _ := stdlib.And(cty.True, cty.True)
	eq := cty.NumberIntVal(1).Equals(cty.NumberIntVal(1))
	for _, v := range []cty.Value{cty.True, cty.False, cty.BoolVal(true), cty.BoolVal(false), notFalse, and, eq,
		cty.NumberIntVal(1).Equals(cty.NumberIntVal(2))} {
		if got, want := True(v), v.True(); got != want {
			t.Errorf("True(%#v) = %v, cty says %v", v, got, want)
		}
	}
}
