package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindScenario(t *testing.T) {
	share := t.TempDir()
	lab := filepath.Join(share, "examples", "lab")
	if err := os.MkdirAll(lab, 0o755); err != nil {
		t.Fatal(err)
	}
	shipped := filepath.Join(lab, "gpfs-firewall.hcl")
	if err := os.WriteFile(shipped, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"PROVA_SHARE=" + share}
	for _, name := range []string{"gpfs-firewall", "gpfs-firewall.hcl"} {
		if got, err := findScenario(name, env); err != nil || got != shipped {
			t.Errorf("findScenario(%q) = %q, %v; want %q", name, got, err, shipped)
		}
	}
	local := filepath.Join(t.TempDir(), "mine.hcl")
	if err := os.WriteFile(local, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := findScenario(local, env); err != nil || got != local {
		t.Errorf("a path is used as given: got %q, %v", got, err)
	}
	_, err := findScenario("nosuch", env)
	if err == nil || !strings.Contains(err.Error(), "no shipped scenario nosuch.hcl") || !strings.Contains(err.Error(), lab) {
		t.Errorf("a missing scenario must say where prova looked: %v", err)
	}
	if got, _ := findScenario("", env); got != "" {
		t.Errorf("no scenario stays none, got %q", got)
	}
}
