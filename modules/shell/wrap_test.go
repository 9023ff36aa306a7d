package shell

import (
	"context"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
)

// TestWrapAddsOnlyWhatIsSet holds the command lines wrap makes, the short
// path (no chdir, no environment) included: the inner command as it is.
func TestWrapAddsOnlyWhatIsSet(t *testing.T) {
	dir := "/srv/a b"
	for _, tc := range []struct {
		name    string
		a       args
		withEnv bool
		want    string
	}{
		{"nothing set", args{}, true, "sh -c true"},
		{"env not wanted", args{Env: map[string]string{"A": "1"}}, false, "sh -c true"},
		{"empty env", args{Env: map[string]string{}}, true, "sh -c true"},
		{"env sorted and quoted", args{Env: map[string]string{"B": "x y", "A": "1"}}, true, "A=1 B='x y' sh -c true"},
		{"chdir without env", args{Chdir: &dir, Env: map[string]string{"A": "1"}}, false, "cd -- '/srv/a b' && sh -c true"},
		{"chdir and env", args{Chdir: &dir, Env: map[string]string{"A": "1"}}, true, "cd -- '/srv/a b' && A=1 sh -c true"},
	} {
		if got := tc.a.wrap(module.Command("sh", "-c", "true"), tc.withEnv); got != tc.want {
			t.Errorf("%s: wrap = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestNoStdinReadsNothing: without stdin the command gets no input (the
// host is called with a nil reader, not an empty one).
func TestNoStdinReadsNothing(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	called := false
	h.Handle(`^sh -c`, func(_ string, in []byte) moduletest.Reply {
		called = true
		if len(in) != 0 {
			t.Errorf("stdin = %q, want none", in)
		}
		return moduletest.Reply{}
	})
	if _, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: mustDecode(t, `command = "cat"`)}); err != nil || !called {
		t.Fatalf("Apply: %v, command run: %v", err, called)
	}
}
