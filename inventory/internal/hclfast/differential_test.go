package hclfast_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	benchfanout "github.com/provadev/prova/bench/fanout"
)

// repoRoot is the module's root, found from this package's directory.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("go.mod not found above the package")
		}
		dir = up
	}
}

// corpus is every HCL file of the repository (inventories, runbooks, the
// test data), the .hcl members of every txtar archive (the CLI's
// testscripts) and ScaleInventory at several sizes, by name.
func corpus(t testing.TB, root string) map[string][]byte {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		switch {
		case strings.HasSuffix(path, ".hcl"):
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files[rel] = src
		case strings.HasSuffix(path, ".txtar"):
			a, err := txtar.ParseFile(path)
			if err != nil {
				return err
			}
			for _, f := range a.Files {
				if strings.HasSuffix(f.Name, ".hcl") {
					files[rel+":"+f.Name] = f.Data
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 10, 200, 2000} {
		files[fmt.Sprintf("ScaleInventory(%d)", n)] = []byte(benchfanout.ScaleInventory(n))
	}
	return files
}

// mustTake are files the fast path has to take: the common inventories.
// A fast path that declined everything would pass the comparisons; this
// list is what keeps the test from passing that way.
var mustTake = []string{
	"ScaleInventory(1)", "ScaleInventory(10)", "ScaleInventory(200)", "ScaleInventory(2000)",
	"inventory/testdata/hcl/valid/cluster.hcl",
	"inventory/testdata/hcl/valid/minimal.hcl",
	"inventory/testdata/hcl/valid/precedence.hcl",
	"cmd/prova/testdata/script/inventory.txtar:inv.hcl",
	"cmd/prova/testdata/script/inventory_cache.txtar:inv.hcl",
	"examples/lab/healthy.hcl",
	"lab/scenario/testdata/valid/minimal.hcl",
}

// TestSameTreeAsHCLSyntax parses every file of the corpus with both
// parsers: where the fast path takes a file, hclsyntax must report no
// diagnostic and the trees must be equal, ranges and values included.
func TestSameTreeAsHCLSyntax(t *testing.T) {
	root := repoRoot(t)
	files := corpus(t, root)
	if len(files) < 50 {
		t.Fatalf("corpus has only %d files", len(files))
	}
	taken := map[string]bool{}
	for name, src := range files {
		ok, err := check(src, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		taken[name] = ok
	}
	n := 0
	for name, ok := range taken {
		if ok {
			n++
		} else {
			t.Logf("declined: %s", name)
		}
	}
	t.Logf("fast path took %d of %d files", n, len(files))
	for _, name := range mustTake {
		if !taken[name] {
			t.Errorf("fast path declined %s, a common inventory", name)
		}
	}
}
