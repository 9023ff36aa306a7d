package text

import (
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	for in, want := range map[string]int{"": 0, "\n": 0, "a": 1, "a\n": 1, "a\r\nb\r\n": 2, "a\n\nb": 3} {
		got := Lines([]byte(in))
		if len(got) != want {
			t.Errorf("Lines(%q) = %q", in, got)
		}
		for _, l := range got {
			if strings.ContainsAny(l, "\r\n") {
				t.Errorf("Lines(%q) kept a line end: %q", in, l)
			}
		}
	}
}

func TestEndsMidLine(t *testing.T) {
	for in, want := range map[string]bool{"": false, "a\n": false, "a": true, "a\nb": true, "a\r\n": false, " ": false} {
		if EndsMidLine([]byte(in)) != want {
			t.Errorf("EndsMidLine(%q) = %t", in, !want)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 300)
	c := Clip(long)
	if !strings.HasSuffix(c, "…") || len([]rune(c)) != QuoteMax+1 {
		t.Errorf("Clip: %d runes", len([]rune(c)))
	}
	if Clip("short") != "short" {
		t.Error("Clip cut a short line")
	}
}

func TestOptInt(t *testing.T) {
	if v := OptInt(" 42 "); v == nil || *v != 42 {
		t.Error("42")
	}
	if OptInt("x") != nil || OptInt("") != nil {
		t.Error("not a number")
	}
}
