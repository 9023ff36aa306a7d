package benchfanout

import (
	"debug/elf"
	"path/filepath"
	"testing"
)

// TestGoBuildIsStatic builds the floor as the harness does and checks that
// it has no program interpreter: it is built as make build builds prova
// (CGO_ENABLED=0), whatever C compiler the machine has, so that neither
// pays for a dynamic loader the other does not.
func TestGoBuildIsStatic(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "floor")
	if err := GoBuild(t.Context(), bin, floorPkg); err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Fatalf("%s has a program interpreter: it is linked dynamically", bin)
		}
	}
	if f.Section(".dynamic") != nil {
		t.Fatalf("%s has a .dynamic section: it is linked dynamically", bin)
	}
}
