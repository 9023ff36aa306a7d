// Package samples gives tests the real tool outputs kept in the shared
// samples folder (../shared/samples next to the repository), with the three
// header lines every sample carries already stripped.
//
// When the folder is missing, tests that need it are skipped, except under
// CI=true, where they fail: CI always has the folder.
package samples

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Dir returns the samples folder, or skips (fails under CI) when absent.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("PROVA_SAMPLES"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			s := filepath.Join(filepath.Dir(d), "shared", "samples")
			if _, err := os.Stat(s); err == nil {
				return s
			}
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("samples folder ../shared/samples not found (set PROVA_SAMPLES)")
	}
	t.Skip("samples folder ../shared/samples not found (set PROVA_SAMPLES)")
	return ""
}

// Read returns the sample at rel (e.g. "ibstat/no-hca-empty-output.txt")
// without its three header lines.
func Read(t testing.TB, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(Dir(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return Strip(b)
}

// Glob returns the relative names of samples matching pattern inside the
// samples folder, e.g. Glob(t, "nvme-cli/list-subsys*").
func Glob(t testing.TB, pattern string) []string {
	t.Helper()
	dir := Dir(t)
	m, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, 0, len(m))
	for _, p := range m {
		r, _ := filepath.Rel(dir, p)
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// Strip removes the three header lines ("# source:", "# variant:",
// "# note:") from a sample.
func Strip(b []byte) []byte {
	for i := 0; i < 3; i++ {
		if !bytes.HasPrefix(b, []byte("# ")) {
			break
		}
		nl := bytes.IndexByte(b, '\n')
		if nl < 0 {
			return nil
		}
		b = b[nl+1:]
	}
	return b
}
