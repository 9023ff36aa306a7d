package eval

import (
	"slices"
	"testing"
)

// pureFunctions are the library's functions, each reviewed as pure: the
// same arguments give the same value and diagnostics, on any host, at any
// time. Memo (one evaluation per distinct input) and the once-per-step
// evaluation of what does not read the host rely on it. A function that is
// not pure (timestamp, uuid, a file read) must not join this list: the
// engine would have to evaluate the expressions calling it on every host.
var pureFunctions = []string{
	"abs", "alltrue", "anytrue", "can", "ceil", "chomp", "chunklist", "coalesce", "coalescelist",
	"compact", "concat", "contains", "csvdecode", "distinct", "element", "endswith", "flatten",
	"floor", "format", "formatdate", "formatlist", "indent", "index", "join", "jsondecode",
	"jsonencode", "keys", "length", "log", "lookup", "lower", "max", "mean", "median", "merge",
	"min", "parseint", "pow", "range", "regex", "regexall", "replace", "reverse", "setintersection",
	"setproduct", "setsubtract", "setunion", "signum", "slice", "sort", "split", "startswith",
	"strcontains", "strrev", "substr", "sum", "title", "tobool", "tolist", "tomap", "tonumber",
	"toset", "tostring", "trim", "trimprefix", "trimspace", "trimsuffix", "try", "upper", "values",
	"zipmap",
}

func TestFunctionsArePure(t *testing.T) {
	for name := range Functions() {
		if !slices.Contains(pureFunctions, name) {
			t.Errorf("function %s is not in the reviewed list of pure functions: review it (see pureFunctions)", name)
		}
	}
}
