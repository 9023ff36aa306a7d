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
	if err := CompileAll(); err != nil || r.re != nil || Compiled() != before {
		t.Fatalf("CompileAll: %v; it must check the expression, not keep it compiled", err)
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

func TestBadExpressionFoundByCompileAll(t *testing.T) {
	bad := New(`(unclosed`)
	err := CompileAll()
	if err == nil || !strings.Contains(err.Error(), "missing closing )") {
		t.Fatalf("CompileAll: %v; want the bad expression's error", err)
	}
	// Take it out again: the other tests of the package see a clean list.
	allMu.Lock()
	all = all[:len(all)-1]
	allMu.Unlock()
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic at first use")
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
	bad := New(`[unclosed`)
	defer func() {
		allMu.Lock()
		all = all[:len(all)-1]
		allMu.Unlock()
	}()
	if err := Check(0); err == nil || !strings.Contains(err.Error(), "missing closing ]") {
		t.Errorf("Check(0) with %s declared = %v; want its error", bad, err)
	}
}
