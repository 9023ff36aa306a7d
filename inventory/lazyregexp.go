package inventory

import (
	"regexp"
	"sync"
)

// lazyRegexp returns expr compiled on the first call, once, rather than
// at start-up: every prova process runs this package's initialisers,
// and most never import an INI or YAML inventory (docs/performance.md,
// issue 15). An expression that does not compile panics at that first
// call, as regexp.MustCompile would have at start-up; the tests of each
// format reach every one.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
