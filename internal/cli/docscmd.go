package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// docsCmd is the hidden `prova gendocs` that writes the man pages and the
// shell completion files from the command tree itself, so that neither can
// drift from --help. make dist and the packages use it.
func (a *app) docsCmd(root func() *cobra.Command) *cobra.Command {
	var man, completion string
	c := &cobra.Command{
		Use:    "gendocs",
		Short:  "Write man pages and shell completions generated from the command tree",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if man == "" && completion == "" {
				return fmt.Errorf("gendocs: give --man DIR and/or --completion DIR")
			}
			if man != "" {
				if err := writeMan(root(), man); err != nil {
					return err
				}
			}
			if completion != "" {
				return writeCompletions(root(), completion)
			}
			return nil
		},
	}
	c.Flags().StringVar(&man, "man", "", "directory for the section 1 man pages")
	c.Flags().StringVar(&completion, "completion", "", "directory for prova.bash, _prova (zsh) and prova.fish")
	return c
}

// writeMan writes one page per visible command. The date is the source's,
// not today's, so that two builds of one commit give the same pages:
// SOURCE_DATE_EPOCH when set, else the commit time from the build info.
func writeMan(root *cobra.Command, dir string) error {
	date, err := sourceDate()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root.DisableAutoGenTag = true
	h := &doc.GenManHeader{Title: "PROVA", Section: "1", Source: "prova " + version(), Manual: "prova manual", Date: &date}
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
			return fmt.Errorf("gendocs: %s: %w", name, err)
		}
	}
	return nil
}

// sourceDate is the time the documentation is dated with.
func sourceDate() (time.Time, error) {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return time.Time{}, fmt.Errorf("gendocs: SOURCE_DATE_EPOCH=%q is not a number of seconds", s)
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
	return time.Time{}, fmt.Errorf("gendocs: no source date: set SOURCE_DATE_EPOCH or build from a git checkout")
}
