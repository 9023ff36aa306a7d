package eval

import "github.com/zclconf/go-cty/cty"

// True is v.True() for a known, non-null bool v. cty's True compares v
// with cty.True through Value.Equals, which checks types, marks and
// unknowns and makes a new value on every call (5 % of a plan's CPU when
// every when and memo key asked it); an unmarked known bool is one of the
// two values cty.True and cty.False, so comparing with cty.True is the
// same answer. A marked v is asked of cty as before (which panics, as
// cty's True does on any marked value).
func True(v cty.Value) bool {
	if v.IsMarked() {
		return v.True()
	}
	return v == cty.True
}
