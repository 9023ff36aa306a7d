package all

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module"
)

// Every built-in module has a reference page, docs/modules/<id>.md, that
// names each argument and output its Doc() declares.
func TestEveryModuleHasItsReferencePage(t *testing.T) {
	reg := Registry()
	for _, id := range reg.IDs() {
		m, _ := reg.Lookup(id)
		page, err := os.ReadFile(filepath.Join("..", "..", "docs", "modules", id+".md"))
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		d, ok := m.(module.Describer)
		if !ok {
			t.Errorf("%s has no Doc()", id)
			continue
		}
		doc := d.Doc()
		for name := range doc.Args {
			if !strings.Contains(string(page), "`"+name+"`") {
				t.Errorf("docs/modules/%s.md does not document argument %s", id, name)
			}
		}
		for name := range doc.Outputs {
			if !strings.Contains(string(page), "`"+name+"`") {
				t.Errorf("docs/modules/%s.md does not document output %s", id, name)
			}
		}
	}
}
