package inventory

import (
	"sort"
	"unicode/utf8"
)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func decodeRune(b []byte) (rune, int) {
	r, size := utf8.DecodeRune(b)
	if size == 0 {
		size = 1
	}
	return r, size
}
