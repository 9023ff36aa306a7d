package labtest

import (
	"os"
	"path/filepath"
	"testing"
)

type fakeM struct {
	code int
	ran  bool
}

func (f *fakeM) Run() int { f.ran = true; return f.code }

// M's Run runs the tests, then removes the directory the binary was built
// in, and keeps the tests' exit code.
func TestMRemovesTheBuiltBinary(t *testing.T) {
	saved := build.dir
	defer func() { build.dir = saved }()

	dir, err := os.MkdirTemp("", "prova-labtest-m-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "prova"), []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	build.dir = dir
	f := &fakeM{code: 3}
	if code := M(f).Run(); code != 3 || !f.ran {
		t.Fatalf("Run() = %d, ran=%v; want the tests' code 3 after running them", code, f.ran)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s still there after M.Run (stat: %v)", dir, err)
	}
}

// A package whose TestMain does not use M gets a failing test, not a
// binary left in the temporary directory.
func TestBinaryRefusesWithoutM(t *testing.T) {
	saved := build.wrapped
	defer func() { build.wrapped = saved }()
	build.wrapped = false
	r := &recorder{TB: t}
	func() {
		defer func() { recover() }()
		Binary(r)
	}()
	if !r.failed {
		t.Fatal("Binary did not fail without labtest.M")
	}
}

// recorder stops at Fatal instead of failing the real test.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Helper() {}
func (r *recorder) Fatal(args ...any) {
	r.failed = true
	panic("fatal")
}
