package inventory

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports keeps the package independent of the engine: it and its
// internal packages (their non-test files) may import only the standard
// library, hcl, cty, yaml.v3, the package's own internal packages and
// internal/lazyre (itself a leaf: internal/arch).
func TestImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	internal, err := filepath.Glob(filepath.Join("internal", "*", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range internal {
		if !strings.HasSuffix(f, "_test.go") {
			files = append(files, f)
		}
	}
	allowed := []string{"github.com/hashicorp/hcl/v2", "github.com/zclconf/go-cty/", "gopkg.in/yaml.v3", "github.com/provadev/prova/inventory/internal/", "github.com/provadev/prova/internal/lazyre"}
	tests := []string{"github.com/google/go-cmp/", "github.com/provadev/prova/inventory"}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range file.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !strings.Contains(strings.Split(path, "/")[0], ".") {
				continue // standard library
			}
			ok := false
			list := allowed
			if strings.HasSuffix(f, "_test.go") {
				list = append(append([]string(nil), allowed...), tests...)
			}
			for _, a := range list {
				if strings.HasPrefix(path, a) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("%s imports %s", f, path)
			}
		}
	}
}
