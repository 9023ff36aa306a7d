package parsecheck

import (
	"errors"
	"strings"
	"testing"
)

type rows struct {
	Rows      []string
	Truncated bool
}

// naive reads every non-blank line as a row: it guesses.
func naive(b []byte) (any, error) {
	r := &rows{}
	for _, l := range strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n") {
		if strings.TrimSpace(l) != "" {
			r.Rows = append(r.Rows, l)
		}
	}
	return r, nil
}

// strict reads "row N" lines only, once each, and marks a cut last line.
func strict(b []byte) (any, error) {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	r := &rows{Truncated: s != "" && !strings.HasSuffix(s, "\n")}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if r.Truncated {
		lines = lines[:len(lines)-1]
	}
	seen := map[string]bool{}
	for _, l := range lines {
		if !strings.HasPrefix(l, "row ") || seen[l] {
			if len(l) > 200 {
				l = l[:200]
			}
			return nil, errors.New("bad line " + l)
		}
		seen[l] = true
		r.Rows = append(r.Rows, l)
	}
	if len(r.Rows) == 0 && !r.Truncated {
		return nil, errors.New("nothing")
	}
	return r, nil
}

func TestCheckCatchesGuessing(t *testing.T) {
	full := []byte("row 1\nrow 2\n")
	if f := Check(strict, full); len(f) != 0 {
		t.Errorf("strict parser fails: %v", f)
	}
	got := map[string]bool{}
	for _, f := range Check(naive, full) {
		got[f.Case] = true
	}
	for _, c := range []string{Empty, Unrelated, HTML, NotFound, Banner, Twice, Cut} {
		if !got[c] {
			t.Errorf("the naive parser passes %s", c)
		}
	}
	if f := Check(func([]byte) (any, error) { panic("boom") }, full); len(f) != 1 || !strings.Contains(f[0].Detail, "panic") {
		t.Errorf("panic: %v", f)
	}
}

func TestCheckCatchesLongQuoteAndLayout(t *testing.T) {
	// quoter reads "row" lines but quotes a whole bad line in its error.
	quoter := func(b []byte) (any, error) {
		v, err := strict(b)
		if err != nil {
			return nil, errors.New("bad line: " + string(b))
		}
		return v, nil
	}
	if !hasCase(Check(quoter, []byte("row 1\n")), LongLine) {
		t.Error("a parser quoting 1,000 characters passes long_line")
	}
	// layout reads JSON only as its first line is laid out.
	layout := func(b []byte) (any, error) {
		if !strings.HasPrefix(string(b), "{\"a\": 1") {
			return nil, errors.New("not my layout")
		}
		return &rows{Rows: []string{"a"}}, nil
	}
	if !hasCase(Check(layout, []byte("{\"a\": 1}\n")), Indent) {
		t.Error("a layout-dependent JSON parser passes indent")
	}
}

func hasCase(fs []Failure, c string) bool {
	for _, f := range fs {
		if f.Case == c {
			return true
		}
	}
	return false
}
