package all

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every built-in module has a reference page, docs/modules/<id>.md,
// generated from its spec and Doc: the committed page must be what `make
// docs` writes now.
func TestReferencePagesAreCurrent(t *testing.T) {
	reg := Registry()
	for _, id := range reg.IDs() {
		m, _ := reg.Lookup(id)
		path := filepath.Join("..", "..", "docs", "modules", id+".md")
		page, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run make docs)", id, err)
			continue
		}
		if diff := cmp.Diff(string(RefPage(m, page)), string(page)); diff != "" {
			t.Errorf("docs/modules/%s.md is stale; run make docs (-generated +committed):\n%s", id, diff)
		}
	}
}

// The hand-written sections survive regeneration, a page written before
// generation keeps its prose, and regenerating is stable.
func TestRefPageKeepsHandWrittenSections(t *testing.T) {
	reg := Registry()
	m, _ := reg.Lookup("ofed")
	old := []byte("# `ofed`\n\nold intro\n\n## Arguments\n\nNone.\n\n## Behaviour\n\nkept\n\n## Outputs\n\n| a | b |\n|---|---|\n\nmore prose\n")
	once := RefPage(m, old)
	got := string(once)
	for _, want := range []string{"## Overview\n\nold intro\n", "## Behaviour\n\nkept\n", "## More on the outputs\n\nmore prose\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("page lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "| a | b |") {
		t.Errorf("the old table was kept:\n%s", got)
	}
	if twice := RefPage(m, once); string(twice) != got {
		t.Errorf("regenerating changed the page:\n%s", cmp.Diff(got, string(twice)))
	}
}
