package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/parse/all"
)

func (a *app) parseCmd() *cobra.Command {
	var list bool
	cmd := &cobra.Command{
		Use:   "parse PARSER FILE|-",
		Short: "Show, as JSON, what prova reads in a tool's output",
		Long: `parse runs one of prova's tool-output parsers on FILE (or standard input with
"-") and prints the typed result as JSON: the same values the step modules
use. --list names every parser and the command whose output it reads.

EXIT STATUS
  0  parsed
  1  the output could not be read (the line is named) or bad arguments`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			reg := all.Registry()
			if list {
				tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "PARSER\tREADS")
				for _, p := range reg.List() {
					fmt.Fprintf(tw, "%s\t%s\n", p.Name, p.Command)
				}
				return tw.Flush()
			}
			p, ok := reg.Lookup(args[0])
			if !ok {
				return fmt.Errorf("no parser named %q; prova parse --list names them", args[0])
			}
			var data []byte
			var err error
			if args[1] == "-" {
				data, err = io.ReadAll(a.stdin)
			} else {
				data, err = os.ReadFile(args[1])
			}
			if err != nil {
				return err
			}
			v, err := p.Parse(data)
			if err != nil {
				return fmt.Errorf("%s: %w", args[1], err)
			}
			enc := json.NewEncoder(a.stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(v)
		},
	}
	cmd.Flags().BoolVar(&list, "list", false, "list the parsers")
	return cmd
}
