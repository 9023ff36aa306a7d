package redact

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestString(t *testing.T) {
	tests := []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"none", nil, "password hunter2", "password hunter2"},
		{"one", []string{"hunter2"}, "pw=hunter2;", "pw=(sensitive value);"},
		{"every occurrence", []string{"s3cr"}, "s3cr and s3cr", "(sensitive value) and (sensitive value)"},
		{"longest first", []string{"abc", "abcdef"}, "x abcdef y abc", "x (sensitive value) y (sensitive value)"},
		{"overlap merges", []string{"abc", "cde"}, "abcde!", "(sensitive value)!"},
		{"self overlap", []string{"aa"}, "aaa", "(sensitive value)"},
		{"adjacent merge", []string{"ab"}, "abab", "(sensitive value)"},
		{"short secret", []string{"x"}, "axb", "a(sensitive value)b"},
		{"empty secret ignored", []string{""}, "abc", "abc"},
		{"multibyte", []string{"pässwörd"}, "« pässwörd »", "« (sensitive value) »"},
		{"quote and backslash", []string{`a"b\c`}, `v="a"b\c"`, `v="(sensitive value)"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(tt.secrets...)
			if got := r.String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestNilAndZero(t *testing.T) {
	var r *Redactor
	if got := r.String("abc"); got != "abc" {
		t.Errorf("nil String = %q", got)
	}
	if r.Contains("abc") || r.Len() != 0 {
		t.Error("nil redactor claims secrets")
	}
	m := map[string]any{"a": "b"}
	if got := r.Any(m); !cmp.Equal(got, m) {
		t.Errorf("nil Any = %v", got)
	}
	var z Redactor
	z.Add("k")
	if got := z.String("kk"); got != Placeholder {
		t.Errorf("zero value after Add: %q", got)
	}
}

func TestAddDeduplicates(t *testing.T) {
	r := New("a1b2", "a1b2", "")
	r.Add("a1b2", "zz9")
	if r.Len() != 2 {
		t.Errorf("Len = %d, want 2", r.Len())
	}
}

func TestAny(t *testing.T) {
	r := New("tok3n")
	in := map[string]any{
		"stdout":   "login tok3n ok",
		"rc":       float64(0),
		"ok":       true,
		"tok3n":    "key is secret",
		"nested":   []any{"tok3n", map[string]any{"x": "a-tok3n-b"}, nil},
		"evidence": map[string]string{"cmd tok3n": "out tok3n"},
		"list":     []string{"tok3n", "b"},
	}
	orig := map[string]any{
		"stdout":   "login tok3n ok",
		"rc":       float64(0),
		"ok":       true,
		"tok3n":    "key is secret",
		"nested":   []any{"tok3n", map[string]any{"x": "a-tok3n-b"}, nil},
		"evidence": map[string]string{"cmd tok3n": "out tok3n"},
		"list":     []string{"tok3n", "b"},
	}
	want := map[string]any{
		"stdout":            "login (sensitive value) ok",
		"rc":                float64(0),
		"ok":                true,
		"(sensitive value)": "key is secret",
		"nested":            []any{"(sensitive value)", map[string]any{"x": "a-(sensitive value)-b"}, nil},
		"evidence":          map[string]string{"cmd (sensitive value)": "out (sensitive value)"},
		"list":              []string{"(sensitive value)", "b"},
	}
	got := r.Any(in)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Any (-want +got):\n%s", d)
	}
	if d := cmp.Diff(orig, in); d != "" {
		t.Errorf("Any modified its input:\n%s", d)
	}
}

func TestConcurrent(t *testing.T) {
	r := New("first")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			r.Add(strings.Repeat("q", i+3))
		}()
		go func() {
			defer wg.Done()
			if got := r.String("the first one"); got != "the (sensitive value) one" {
				t.Errorf("String = %q", got)
			}
		}()
	}
	wg.Wait()
	if r.Len() != 9 {
		t.Errorf("Len = %d, want 9", r.Len())
	}
}

// FuzzString checks that no secret survives redaction: once placeholders
// are cut out, the output never contains the secret.
func FuzzString(f *testing.F) {
	f.Add("hunter2", "pw=hunter2", "x")
	f.Add("aa", "aaaa", "a")
	f.Add("abc", "abcde", "cde")
	f.Add("(s", "x(s(s", "ue)")
	f.Fuzz(func(t *testing.T, s1, text, s2 string) {
		r := New(s1, s2)
		out := strings.ReplaceAll(r.String(text), Placeholder, "\x00")
		for _, s := range []string{s1, s2} {
			if s != "" && !strings.Contains(s, "\x00") && strings.Contains(out, s) {
				t.Fatalf("secret %q survives in %q", s, out)
			}
		}
	})
}

// Parts of a secret of Fragment bytes or more are redacted wherever they
// appear: text cut before it was redacted keeps no such part.
func TestStringFragments(t *testing.T) {
	r := New("s3cr3t-token-0123456789", "pässwörd-ünïcode")
	for _, c := range []struct{ in, want string }{
		{"will run: curl -H s3cr3t-token-01234...", "will run: curl -H (sensitive value)..."},
		{"...token-0123456789 tail", "...(sensitive value) tail"},
		{"short s3cr3t- stays", "short s3cr3t- stays"}, // 7 bytes
		{"cut pässw…", "cut pässw…"},                   // 6 bytes of it: kept
		{"cut pässwör…", "cut (sensitive value)…"},
		{"x ünïcode y", "x (sensitive value) y"},
	} {
		got := r.String(c.in)
		if got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("String(%q) = %q is not valid UTF-8", c.in, got)
		}
		if r.Contains(c.in) != (got != c.in) {
			t.Errorf("Contains(%q) = %v disagrees with String", c.in, r.Contains(c.in))
		}
	}
}

// FuzzCutSecret: a secret of any length, cut anywhere (as a summary cut at
// a width would), at any position in any text, leaves no part of
// Fragment bytes or more of itself in the redacted text, and the whole
// secret never survives.
func FuzzCutSecret(f *testing.F) {
	f.Add("s3cr3t-value-that-is-long", "will run: echo ", " (because)", uint(0), uint(20))
	f.Add("abcdefgh", "", "", uint(0), uint(8))
	f.Add("pässwörd-ünïcode", "«", "»", uint(3), uint(11))
	f.Add("aaaaaaaaaaaaaaaaaaaa", "aaaa", "aaaa", uint(5), uint(9))
	f.Fuzz(func(t *testing.T, secret, before, after string, from, n uint) {
		if secret == "" || strings.ContainsRune(secret, 0) {
			return
		}
		start := int(from % uint(len(secret)))
		end := start + int(n%uint(len(secret)-start+1))
		text := before + secret[start:end] + after + " " + secret
		out := New(secret).String(text)
		flat := strings.ReplaceAll(out, Placeholder, "\x00")
		if strings.Contains(flat, secret) {
			t.Fatalf("the whole secret survives in %q", out)
		}
		for i := 0; i+Fragment <= len(secret); i++ {
			if part := secret[i : i+Fragment]; strings.Contains(flat, part) {
				t.Fatalf("part %q of the secret survives in %q (text %q)", part, out, text)
			}
		}
		if utf8.ValidString(text) && !utf8.ValidString(out) {
			t.Fatalf("redaction broke UTF-8: %q", out)
		}
	})
}

// BenchmarkString redacts 1 MiB of tool output holding no secret, with
// two secrets registered (one long enough for fragment matching): the cost
// every output line pays.
func BenchmarkString(b *testing.B) {
	line := "gpfs01 VERBS RDMA connection to 10.10.0.4 (gpfs03) on mlx5_0 port 1 established, qps 4\n"
	text := strings.Repeat(line, (1<<20)/len(line))
	r := New("hunter2", "s3cr3t-token-0123456789")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		_ = r.String(text)
	}
}
