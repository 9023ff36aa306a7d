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

// IntInto reads the decimal integer s into *dst; when s is not one it
// leaves *dst alone and returns "<what> is not a number" for the caller's
// error, else "".
func IntInto(s string, dst *int, what string) string {
	v, err := strconv.Atoi(s)
	if err != nil {
		return what + " is not a number"
	}
	*dst = v
	return ""
}
