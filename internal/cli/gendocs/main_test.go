package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/cli"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestManPagesFollowTheCommandTree: every command a user can run has a
// page, named as man expects, and every flag --help shows is on it; the
// hidden entry points have none.
func TestManPagesFollowTheCommandTree(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1764547200") // 2025-12-01
	dir := t.TempDir()
	if err := writeMan(cli.CommandTree(), dir, "prova v9.9.9 (test)"); err != nil {
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
		if !strings.Contains(page, `.TH "PROVA" "1" "Dec 2025" "prova v9.9.9 (test)"`) {
			t.Errorf("%s: not dated by SOURCE_DATE_EPOCH or not from the given source:\n%.200s", name, page)
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
	walk(cli.CommandTree())
	if pages < 10 {
		t.Fatalf("only %d pages", pages)
	}
}

func TestManPagesNeedASourceDate(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "soon")
	if err := writeMan(cli.CommandTree(), t.TempDir(), "prova v9.9.9 (test)"); err == nil || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
		t.Fatalf("a bad SOURCE_DATE_EPOCH must be refused, got %v", err)
	}
}

func TestCompletionsWritten(t *testing.T) {
	dir := t.TempDir()
	if err := writeCompletions(cli.CommandTree(), dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"prova.bash": "__start_prova", "_prova": "#compdef prova", "prova.fish": "complete -c prova"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !strings.Contains(string(b), want) {
			t.Errorf("%s: want %q in it (err %v)", name, want, err)
		}
	}
}

func TestRunRefusesWhatItCannotDo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "give --man DIR and/or --completion DIR"},
		{[]string{"--man", t.TempDir()}, "--man needs --source"},
		{[]string{"--completion", t.TempDir(), "extra"}, `unexpected argument "extra"`},
	} {
		if err := run(c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("run(%q) = %v, want an error saying %q", c.args, err, c.want)
		}
	}
}
