// Command gendocs writes docs/modules/<id>.md for every built-in module from
// its spec and Doc (modules/all.RefPage), keeping each page's hand-written
// sections. Run by `make docs` (go generate ./modules/all); the test
// TestReferencePagesAreCurrent fails when a committed page is stale.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/provadev/prova/modules/all"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: gendocs DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	reg := all.Registry()
	for _, id := range reg.IDs() {
		m, _ := reg.Lookup(id)
		path := filepath.Join(dir, id+".md")
		old, err := os.ReadFile(path)
		if err != nil && !os.IsNotExist(err) {
			fmt.Fprintln(os.Stderr, "gendocs:", err)
			os.Exit(1)
		}
		if err := os.WriteFile(path, all.RefPage(m, old), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "gendocs:", err)
			os.Exit(1)
		}
	}
}
