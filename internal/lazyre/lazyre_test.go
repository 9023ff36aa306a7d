package lazyre

import (
	"strings"
	"sync"
	"testing"
)

func TestCompiledOnFirstUseOnce(t *testing.T) {
	before := Compiled()
	r := New(`^(\w+)=(\d+)$`)
	if r.re != nil || Compiled() != before {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if m := r.FindStringSubmatch("a=12"); len(m) != 3 || m[2] != "12" {
				t.Errorf("FindStringSubmatch: %q", m)
			}
		})
	}
	wg.Wait()
	first := r.Regexp()
	if r.Regexp() != first || !r.MatchString("b=3") || r.MatchString("b=x") {
		t.Error("not one compiled expression matching as regexp does")
	}
	if n := Compiled() - before; n != 1 {
		t.Errorf("Compiled went up by %d after nine uses from eight goroutines; want 1", n)
	}
	if r.String() != `^(\w+)=(\d+)$` {
		t.Errorf("String: %q", r.String())
	}
}

func TestBadExpressionPanicsAtFirstUse(t *testing.T) {
	bad := New(`(unclosed`)
	defer func() {
		r := recover()
		if r == nil {
			t.Fatal("a bad expression did not panic at first use")
		}
		if !strings.Contains(r.(string), "missing closing )") {
			t.Errorf("panic %q; want regexp's error", r)
		}
	}()
	bad.MatchString("x")
}

func TestCheck(t *testing.T) {
	if err := Check(2); err == nil || !strings.Contains(err.Error(), "2 regular expressions were compiled by package initialisers") {
		t.Errorf("Check(2) = %v; want the initialisers' count", err)
	}
	if err := Check(0); err != nil {
		t.Errorf("Check(0) = %v", err)
	}
}
