package evidence_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEvidenceDoesNotImportUI holds the layering rule: the record, the
// reports and the rest of internal/evidence own their formats and never
// import the console/JSON renderers in internal/ui (which may import them).
func TestEvidenceDoesNotImportUI(t *testing.T) {
	n := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		n++
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if strings.HasSuffix(path, "/internal/ui") || strings.Contains(path, "/internal/ui/") || strings.Contains(path, "/internal/cli") {
				t.Errorf("%s imports %s", p, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Fatalf("only %d files checked", n)
	}
}
