package moduletest

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkTranscript compares a case's command transcript with its file under
// testdata, or rewrites the file when UPDATE_GOLDEN=1 (the project's one
// switch for golden files). The suite does this itself so that the module
// test kit stands on the engine alone and reaches into no internal package.
func checkTranscript(t testing.TB, path string, got []byte) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("transcript: %v (run with UPDATE_GOLDEN=1 to create it)", err)
		return
	}
	if !bytes.Equal(want, got) {
		t.Errorf("transcript %s differs (-want +got), run with UPDATE_GOLDEN=1 to update:\n%s", path,
			cmp.Diff(strings.SplitAfter(string(want), "\n"), strings.SplitAfter(string(got), "\n")))
	}
}
