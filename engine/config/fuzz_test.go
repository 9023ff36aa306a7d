package config

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseRunbook: the loader never panics, every error diagnostic has a
// source range inside the input, and parsing is deterministic.
func FuzzParseRunbook(f *testing.F) {
	for _, dir := range []string{"testdata/valid", "testdata/errors"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.hcl"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err == nil {
				f.Add(b)
			}
		}
	}
	f.Add([]byte(`step "a" "b" { hosts = "all" depends_on = [step.c] }`))
	f.Fuzz(func(t *testing.T, src []byte) {
		rb, diags := Parse(map[string][]byte{"fuzz.hcl": src})
		for _, d := range diags {
			if d.Subject == nil {
				continue // file-level problems (none today) carry no range
			}
			if d.Subject.Filename != "fuzz.hcl" {
				t.Fatalf("diagnostic points at %q", d.Subject.Filename)
			}
			if d.Subject.Start.Byte < 0 || d.Subject.End.Byte > len(src) || d.Subject.Start.Byte > d.Subject.End.Byte {
				t.Fatalf("diagnostic range %v outside input of %d bytes: %s", d.Subject, len(src), d.Error())
			}
		}
		rb2, diags2 := Parse(map[string][]byte{"fuzz.hcl": src})
		if len(diags) != len(diags2) || (rb == nil) != (rb2 == nil) || (rb != nil && len(rb.Steps) != len(rb2.Steps)) {
			t.Fatal("parsing is not deterministic")
		}
	})
}
