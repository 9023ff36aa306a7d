package redact

import (
	"sort"
	"strings"
	"sync"
)

// Placeholder replaces every secret.
const Placeholder = "(sensitive value)"

// Redactor replaces secrets in text. The zero value and a nil *Redactor
// redact nothing. It is safe for concurrent use.
type Redactor struct {
	mu      sync.RWMutex
	secrets []string // distinct, longest first
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
	}
	sort.SliceStable(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
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
	return false
}

// String returns s with every occurrence of every secret replaced by
// Placeholder. Overlapping or adjacent occurrences merge into one
// placeholder.
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
	if len(spans) == 0 {
		return s
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var b strings.Builder
	b.Grow(len(s))
	pos := 0
	for i := 0; i < len(spans); {
		start, end := spans[i].start, spans[i].end
		for i++; i < len(spans) && spans[i].start <= end; i++ {
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
