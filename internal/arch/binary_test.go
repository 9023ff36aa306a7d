package arch

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// notInBinary are packages the prova binary must not link: each costs
// every prova process its package initialisers and its pages of text and
// read-only data (a prova process is resident for nearly all of its
// binary, see docs/performance.md, issue 15), for work that only a
// build-time tool does.
var notInBinary = map[string]string{
	"github.com/spf13/cobra/doc":              "man pages are written by internal/cli/gendocs at build time",
	"github.com/cpuguy83/go-md2man/v2/md2man": "man pages are written by internal/cli/gendocs at build time",
	"github.com/russross/blackfriday/v2":      "man pages are written by internal/cli/gendocs at build time",
	"go.yaml.in/yaml/v3":                      "only cobra/doc needs this second YAML library",
}

// TestBinaryLinksNoBuildTools lists what ./cmd/prova links (go list
// -deps, the packages whose initialisers run in every prova process) and
// fails on any of notInBinary.
func TestBinaryLinksNoBuildTools(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "../../cmd/prova")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, errb.String())
	}
	deps := strings.Fields(out.String())
	if len(deps) < 100 {
		t.Fatalf("go list -deps ../../cmd/prova listed only %d packages", len(deps))
	}
	found := false
	for _, d := range deps {
		if d == "github.com/spf13/cobra" {
			found = true
		}
		if why, ok := notInBinary[d]; ok {
			t.Errorf("cmd/prova links %s: %s", d, why)
		}
	}
	if !found {
		t.Fatal("cmd/prova does not link cobra: the dependency list is not the binary's")
	}
}
