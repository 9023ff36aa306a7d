package text

import (
	"strconv"
	"strings"
)

// OptInt reads a decimal integer (surrounding space allowed); nil when s is
// not one.
func OptInt(s string) *int {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return &v
}
