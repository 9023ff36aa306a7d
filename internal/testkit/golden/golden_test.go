package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder captures failures instead of failing the real test.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, format)
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.fatal = true
	r.errors = append(r.errors, format)
}

func TestCheckCompares(t *testing.T) {
	t.Setenv(UpdateEnv, "")
	p := filepath.Join(t.TempDir(), "x.golden")
	if err := os.WriteFile(p, []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	Check(r, p, []byte("a\nb\n"))
	if len(r.errors) != 0 {
		t.Fatalf("equal content reported as different: %v", r.errors)
	}
	Check(r, p, []byte("a\nc\n"))
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], "differs") {
		t.Fatalf("different content not reported: %v", r.errors)
	}
}

func TestCheckMissingFile(t *testing.T) {
	t.Setenv(UpdateEnv, "")
	r := &recorder{TB: t}
	Check(r, filepath.Join(t.TempDir(), "none.golden"), []byte("x"))
	if len(r.errors) != 1 {
		t.Fatalf("missing golden file not reported: %v", r.errors)
	}
}

func TestCheckUpdates(t *testing.T) {
	t.Setenv(UpdateEnv, "1")
	p := filepath.Join(t.TempDir(), "sub", "x.golden")
	r := &recorder{TB: t}
	Check(r, p, []byte("new\n"))
	if len(r.errors) != 0 {
		t.Fatalf("update failed: %v", r.errors)
	}
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "new\n" {
		t.Fatalf("golden file not written: %q, %v", b, err)
	}
}
