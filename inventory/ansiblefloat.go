package inventory

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// A float read from an Ansible inventory (INI 3.0, YAML 3.0, JSON 3.0)
// is a Python float, a float64, and prova keeps it as one: a cty number
// holding a float64 (53 bits of mantissa), where an integer is exact (at
// least 64 bits). The value is the same number either way (3.0 == 3 in a
// runbook, as in Jinja), but prova's inventory output (prova inventory,
// --json) prints a float as Python does, 3.0, as ansible-inventory does.
// In a runbook's string template a number is printed by HCL, 3.

// pyFloatVal is the float f as a cty number that prints as a float.
func pyFloatVal(f float64) cty.Value { return cty.NumberFloatVal(f) }

// isPyFloat reports whether f holds a float64, as pyFloatVal (and
// cty.NumberFloatVal) make it.
func isPyFloat(f *big.Float) bool { return f.Prec() == 53 && !f.IsInf() }

// pyFloatText is f as Python's repr prints a float: the shortest digits
// that read back as f, in fixed notation with at least one decimal when the
// exponent is from -4 to 15 (3.0, 0.0001, 1e+16, 1e-05).
func pyFloatText(f float64) string {
	e := strconv.FormatFloat(f, 'e', -1, 64)
	k := strings.IndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[k+1:])
	if exp < -4 || exp >= 16 {
		return e
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}
