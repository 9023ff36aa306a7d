package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/provadev/prova/internal/cli"
	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("gendocs", flag.ContinueOnError)
	man := fs.String("man", "", "directory for the section 1 man pages")
	completion := fs.String("completion", "", "directory for prova.bash, _prova (zsh) and prova.fish")
	source := fs.String("source", "", `the pages' source line, what the prova binary they document prints for --version (e.g. "prova v1.2.0 (revision ...)")`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *man == "" && *completion == "" {
		return fmt.Errorf("give --man DIR and/or --completion DIR")
	}
	if *man != "" {
		if *source == "" {
			return fmt.Errorf("--man needs --source: what the documented binary prints for --version")
		}
		if err := writeMan(cli.CommandTree(), *man, *source); err != nil {
			return err
		}
	}
	if *completion != "" {
		return writeCompletions(cli.CommandTree(), *completion)
	}
	return nil
}

// writeMan writes one page per visible command. The date is the source's,
// not today's, so that two builds of one commit give the same pages:
// SOURCE_DATE_EPOCH when set, else the commit time from the build info.
func writeMan(root *cobra.Command, dir, source string) error {
	date, err := sourceDate()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root.DisableAutoGenTag = true
	h := &doc.GenManHeader{Title: "PROVA", Section: "1", Source: source, Manual: "prova manual", Date: &date}
	return doc.GenManTree(root, h, dir)
}

func writeCompletions(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, gen := range map[string]func(string) error{
		"prova.bash": func(p string) error { return root.GenBashCompletionFileV2(p, true) },
		"_prova":     root.GenZshCompletionFile,
		"prova.fish": func(p string) error { return root.GenFishCompletionFile(p, true) },
	} {
		if err := gen(filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// sourceDate is the time the documentation is dated with.
func sourceDate() (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a number of seconds", s)
		}
		return time.Unix(n, 0).UTC(), nil
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.time" {
				if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
					return t.UTC(), nil
				}
			}
		}
	}
	return time.Time{}, fmt.Errorf("no source date: set SOURCE_DATE_EPOCH or build from a git checkout")
}
