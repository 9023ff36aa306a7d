package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/internal/support"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/all"
)

func (a *app) parseCmd() *cobra.Command {
	var list bool
	var bundle string
	cmd := &cobra.Command{
		Use:   "parse PARSER FILE|- | parse --bundle FILE",
		Short: "Show, as JSON, what prova reads in a tool's output",
		Long: `parse runs one of prova's tool-output parsers on FILE (or standard input with
"-") and prints the typed result as JSON: the same values the step modules
use. --list names every parser and the command whose output it reads.
--bundle FILE replays every parser on a support bundle written by
"prova collect" and reports, per host and tool, what would fail.

EXIT STATUS
  0  parsed
  1  the output could not be read (the line is named) or bad arguments;
     with --bundle: some output in the bundle cannot be read`,
		Args: func(cmd *cobra.Command, args []string) error {
			if list || bundle != "" {
				return cobra.NoArgs(cmd, args)
			}
			return cobra.ExactArgs(2)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			reg := all.Registry()
			if bundle != "" {
				return a.replayBundle(bundle, reg)
			}
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
	cmd.Flags().StringVar(&bundle, "bundle", "", "replay every parser on a support bundle (prova collect)")
	return cmd
}

// replayBundle runs today's parsers on every output in a support bundle
// and prints one line per host and probe that does not parse, then a
// summary; it fails when something would fail.
func (a *app) replayBundle(file string, reg *parse.Registry) error {
	fh, err := os.Open(file)
	if err != nil {
		return err
	}
	defer fh.Close()
	b, err := support.Read(fh)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	rs := support.Replay(b, reg)
	count := map[string]int{}
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\tPROBE\tPARSER\tOUTCOME\tDETAIL")
	for _, r := range rs {
		count[r.Outcome]++
		if r.Outcome == support.ReplayOK || r.Outcome == support.ReplayRaw || r.Outcome == support.ReplayNotRun {
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.Host, dash(r.Probe), dash(r.Parser), r.Outcome, r.Detail)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(a.stdout, "%s (prova %s, %d host(s)): %d parsed, %d fail, %d changed, %d not run on the host, %d kept raw\n",
		file, b.Manifest.ProvaVersion, len(b.Hosts), count[support.ReplayOK], count[support.ReplayFails]+count[support.ReplayNoParser],
		count[support.ReplayChanged], count[support.ReplayNotRun], count[support.ReplayRaw])
	if support.Failed(rs) {
		return errSilent{fmt.Errorf("some outputs in %s cannot be read", file)}
	}
	return nil
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
