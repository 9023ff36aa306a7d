package cli

import (
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// CommandTree returns prova's command tree as `prova --help` shows it,
// wired to no input and no output, for the tools that generate the man
// pages and shell completions from it (internal/cli/gendocs). Running a
// command of it is not what it is for.
func CommandTree() *cobra.Command {
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
	return a.rootCmd()
}
