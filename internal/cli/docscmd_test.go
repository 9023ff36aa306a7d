package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestManPagesFollowTheCommandTree: every command a user can run has a
// page, named as man expects, and every flag --help shows is on it; the
// hidden entry points have none.
func TestManPagesFollowTheCommandTree(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1764547200") // 2025-12-01
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	dir := t.TempDir()
	if err := writeMan(a.rootCmd(), dir); err != nil {
		t.Fatal(err)
	}
	var walk func(c *cobra.Command)
	pages := 0
	walk = func(c *cobra.Command) {
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		b, err := os.ReadFile(filepath.Join(dir, name))
		if !c.IsAvailableCommand() && c.HasParent() {
			if err == nil {
				t.Errorf("hidden command %q has a man page", c.CommandPath())
			}
			return
		}
		if err != nil {
			t.Errorf("no man page for %q: %v", c.CommandPath(), err)
			return
		}
		pages++
		page := string(b)
		if !strings.Contains(page, `.TH "PROVA" "1" "Dec 2025"`) {
			t.Errorf("%s: not dated by SOURCE_DATE_EPOCH:\n%.200s", name, page)
		}
		c.NonInheritedFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(page, `\-\-`+strings.ReplaceAll(f.Name, "-", `\-`)) && !strings.Contains(page, "--"+f.Name) {
				t.Errorf("%s: flag --%s of %q is missing", name, f.Name, c.CommandPath())
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(a.rootCmd())
	if pages < 10 {
		t.Fatalf("only %d pages", pages)
	}
}

func TestManPagesNeedASourceDate(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "soon")
	a := &app{stdout: io.Discard, stderr: io.Discard}
	if err := writeMan(a.rootCmd(), t.TempDir()); err == nil || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
		t.Fatalf("a bad SOURCE_DATE_EPOCH must be refused, got %v", err)
	}
}

func TestCompletionsWritten(t *testing.T) {
	a := &app{stdout: io.Discard, stderr: io.Discard}
	dir := t.TempDir()
	if err := writeCompletions(a.rootCmd(), dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"prova.bash": "__start_prova", "_prova": "#compdef prova", "prova.fish": "complete -c prova"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: want %q in it (err %v)", name, want, err)
		}
	}
}

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
