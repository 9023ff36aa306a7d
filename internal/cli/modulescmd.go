package cli

import (
	"fmt"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/all"
)

func (a *app) modulesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "modules [ID]",
		Short: "List step modules, or show one module's arguments and outputs",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			reg := all.Registry()
			if len(args) == 0 {
				tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "MODULE\tSUMMARY")
				for _, id := range reg.IDs() {
					m, _ := reg.Lookup(id)
					sum := ""
					if d, ok := m.(module.Describer); ok {
						sum = d.Doc().Summary
					}
					fmt.Fprintf(tw, "%s\t%s\n", id, sum)
				}
				return tw.Flush()
			}
			m, ok := reg.Lookup(args[0])
			if !ok {
				return fmt.Errorf("no module named %q", args[0])
			}
			d, ok := m.(module.Describer)
			if !ok {
				fmt.Fprintf(a.stdout, "%s (no documentation)\n", m.ID())
				return nil
			}
			doc := d.Doc()
			fmt.Fprintf(a.stdout, "%s: %s\n\n%s\n\nArguments:\n", m.ID(), doc.Summary, all.Kind(m))
			printMap(a, doc.Args)
			fmt.Fprintln(a.stdout, "\nOutputs (besides changed, failed, skipped, rc, stdout, stderr, message, host):")
			printMap(a, doc.Outputs)
			if doc.Example != "" {
				fmt.Fprintf(a.stdout, "\nExample:\n%s\n", doc.Example)
			}
			return nil
		},
	}
}

func printMap(a *app, m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	for _, k := range keys {
		fmt.Fprintf(tw, "  %s\t%s\n", k, m[k])
	}
	_ = tw.Flush()
}
