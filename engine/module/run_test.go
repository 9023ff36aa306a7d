package module

import "testing"

func TestCapBufferKeepsItsLimit(t *testing.T) {
	w := &CapBuffer{Limit: 5}
	for _, p := range []string{"abc", "def", "gh"} {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("write %q: %d %v", p, n, err)
		}
	}
	if got := w.String(); got != "abcde\n[output truncated]\n" {
		t.Fatalf("%q", got)
	}
	if got := w.String(); got != "abcde\n[output truncated]\n" {
		t.Fatalf("second String: %q", got)
	}
	w = &CapBuffer{Limit: 5}
	buf := []byte("abc\n")
	w.Write(buf)
	buf[0] = 'X' // the transport reuses its buffer
	if got := w.String(); got != "abc\n" {
		t.Fatalf("%q", got)
	}
	// Writes after String: kept up to the limit, then marked once.
	w.Write([]byte("d"))
	if got := w.String(); got != "abc\nd" {
		t.Fatalf("%q", got)
	}
	w.Write([]byte("e"))
	if got := w.String(); got != "abc\nd\n[output truncated]\n" {
		t.Fatalf("%q", got)
	}
	w.Write([]byte("f"))
	if got := w.String(); got != "abc\nd\n[output truncated]\n" {
		t.Fatalf("%q", got)
	}
	w = &CapBuffer{Limit: 7}
	for _, p := range []string{"0123", "", "4567", "89"} {
		w.Write([]byte(p))
	}
	if got := w.String(); got != "0123456\n[output truncated]\n" {
		t.Fatalf("%q", got)
	}
	if got := (&CapBuffer{Limit: 7}).String(); got != "" {
		t.Fatalf("nothing written: %q", got)
	}
}
