// Package samples gives tests the real tool outputs kept in the
// repository's testdata/samples folder, with the three header lines every
// sample carries already stripped. testdata/samples/INDEX.md names each
// sample's public source and says how a new one is added.
//
// It does not reach outside the repository: a fresh clone tests itself.
package samples

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// Dir returns the repository's testdata/samples folder, found by walking up
// from the test's working directory (its package directory) to go.mod. A
// missing folder is a broken checkout and fails the test.
func Dir(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			s := filepath.Join(d, "testdata", "samples")
			if _, err := os.Stat(filepath.Join(s, "INDEX.md")); err != nil {
				t.Fatalf("samples folder testdata/samples not found: %v", err)
			}
			return s
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no go.mod above %s: the samples live in the repository's testdata/samples", wd)
		}
	}
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
