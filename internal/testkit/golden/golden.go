package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// UpdateEnv is the environment variable that switches Check to update mode.
const UpdateEnv = "UPDATE_GOLDEN"

// Updating reports whether golden files are being rewritten.
func Updating() bool { return os.Getenv(UpdateEnv) == "1" }

// Check compares got with the file at path. When UPDATE_GOLDEN=1 it writes got
// to path instead (creating parent directories), so that the change can be
// reviewed in the diff. A mismatch or a missing file fails t.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden: %v", err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: %v", err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("golden: %v (run with %s=1 to create it)", err, UpdateEnv)
		return
	}
	if bytes.Equal(want, got) {
		return
	}
	t.Errorf("golden: %s differs (-want +got), run with %s=1 to update:\n%s",
		path, UpdateEnv, cmp.Diff(lines(want), lines(got)))
}

func lines(b []byte) []string { return strings.SplitAfter(string(b), "\n") }
