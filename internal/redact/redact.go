package redact

import (
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Placeholder replaces every secret.
const Placeholder = "(sensitive value)"

// Fragment is the length, in bytes, from which a part of a secret is
// redacted wherever it appears, not only the whole secret: text that was
// shortened before it was redacted ("will run: curl -H token:abcdef0123...")
// keeps no part of a secret this long or longer.
const Fragment = 8

// Redactor replaces secrets in text. The zero value and a nil *Redactor
// redact nothing. It is safe for concurrent use.
type Redactor struct {
	mu      sync.RWMutex
	secrets []string // distinct, longest first
	// grams holds every Fragment-byte window of every secret at least
	// Fragment long; filter has the bit of each window's hash set, so most
	// text positions are ruled out without a map lookup.
	grams  map[uint64]struct{}
	filter *[filterWords]uint64
}

const filterWords = 1 << 10 // 65,536 bits

// filterBit is the bit of a window in the filter.
func filterBit(g uint64) (word int, mask uint64) {
	h := (g * 0x9E3779B97F4A7C15) >> 48 // 16 bits
	return int(h >> 6), 1 << (h & 63)
}

// New returns a Redactor for the given secrets; empty strings are ignored.
func New(secrets ...string) *Redactor {
	r := &Redactor{}
	r.Add(secrets...)
	return r
}

// Add registers more secrets; empty strings and duplicates are ignored.
func (r *Redactor) Add(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range secrets {
		if s == "" || contains(r.secrets, s) {
			continue
		}
		r.secrets = append(r.secrets, s)
		for i := 0; i+Fragment <= len(s); i++ {
			if r.grams == nil {
				r.grams = map[uint64]struct{}{}
				r.filter = new([filterWords]uint64)
			}
			g := gram(s[i:])
			r.grams[g] = struct{}{}
			w, m := filterBit(g)
			r.filter[w] |= m
		}
	}
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
}

// gram is the first Fragment bytes of s as a number.
func gram(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Len reports how many distinct secrets are registered.
func (r *Redactor) Len() int {
	if r == nil {
		return 0
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.secrets)
}

// Contains reports whether s holds any registered secret.
func (r *Redactor) Contains(s string) bool {
	if r == nil {
		return false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return len(r.fragments(nil, s)) > 0
}

// fragments adds the spans of s that are Fragment-byte windows of a
// secret; overlapping windows together cover any longer part of a secret.
func (r *Redactor) fragments(spans []span, s string) []span {
	if len(r.grams) == 0 {
		return spans
	}
	if len(s) < Fragment {
		return spans
	}
	g := gram(s) << 8 // the window before the first; one byte rolls in per position
	for i := 0; i+Fragment <= len(s); i++ {
		g = g>>8 | uint64(s[i+Fragment-1])<<56
		if w, m := filterBit(g); r.filter[w]&m == 0 {
			continue
		}
		if _, ok := r.grams[g]; ok {
			spans = append(spans, span{i, i + Fragment})
		}
	}
	return spans
}

// String returns s with every occurrence of every secret, and every part
// of at least Fragment bytes of one, replaced by Placeholder. Overlapping
// or adjacent occurrences merge into one placeholder; a placeholder never
// splits a UTF-8 character.
func (r *Redactor) String(s string) string {
	if r == nil || s == "" {
		return s
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	var spans []span
	for _, sec := range r.secrets {
		spans = appendMatches(spans, s, sec)
	}
	spans = r.fragments(spans, s)
	if len(spans) == 0 {
		return s
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for i := 0; i < len(spans); {
		start, end := spans[i].start, spans[i].end
		// A fragment may start or end inside a multi-byte character: the
		// placeholder takes the whole character.
		for start > pos && !utf8.RuneStart(s[start]) {
			start--
		}
		for {
			for end < len(s) && !utf8.RuneStart(s[end]) {
				end++
			}
			if i++; i >= len(spans) || spans[i].start > end {
				break
			}
			end = max(end, spans[i].end)
		}
		b.WriteString(s[pos:start])
		b.WriteString(Placeholder)
		pos = end
	}
	b.WriteString(s[pos:])
	return b.String()
}

type span struct{ start, end int }

// appendMatches adds every occurrence of sec in s, overlapping ones
// included ("aa" occurs twice in "aaa").
func appendMatches(spans []span, s, sec string) []span {
	for off := 0; off <= len(s)-len(sec); {
		i := strings.Index(s[off:], sec)
		if i < 0 {
			break
		}
		start := off + i
		spans = append(spans, span{start, start + len(sec)})
		off = start + 1
	}
	return spans
}

// Any returns a copy of v with every string redacted, map keys included. It
// walks the shapes encoding/json produces (map[string]any, []any, string)
// and also map[string]string and []string; other values are returned as
// they are. v itself is never modified.
func (r *Redactor) Any(v any) any {
	if r.Len() == 0 {
		return v
	}
	switch x := v.(type) {
	case string:
		return r.String(x)
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[r.String(k)] = r.Any(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.Any(e)
		}
		return out
	case map[string]string:
		return r.StringMap(x)
	case []string:
		if x == nil {
			return x
		}
		out := make([]string, len(x))
		for i, e := range x {
			out[i] = r.String(e)
		}
		return out
	}
	return v
}

// StringMap returns a copy of m with keys and values redacted.
func (r *Redactor) StringMap(m map[string]string) map[string]string {
	if m == nil || r.Len() == 0 {
		return m
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[r.String(k)] = r.String(v)
	}
	return out
}
