package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/program"
)

func (a *app) planCmd() *cobra.Command {
	var f runFlags
	var out string
	var detailed bool
	cmd := &cobra.Command{
		Use:   "plan RUNBOOK -i INVENTORY",
		Short: "Show what apply would change, running only read-only probes",
		Long: `plan evaluates RUNBOOK against the inventory and asks every step's module, on
every host, what apply would do. It runs read-only probes only: nothing on any
host is changed. Per host it prints "~ change", "= no change", "? known after
apply" (a value that only exists once earlier steps have run) or "- skip".

EXIT STATUS
  0  success (with --detailed-exitcode: and no changes)
  1  error
  2  with --detailed-exitcode: success, and there are changes`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rb, prog, err := a.loadRunbook(args[0])
			if err != nil {
				return err
			}
			inv, err := a.loadInventory(f.inventory, f.limit)
			if err != nil {
				return err
			}
			l, err := a.prepare(rb, prog, inv, &f, false)
			if err != nil {
				return err
			}
			x := &execution{mode: apply.ModePlan, l: l, f: &f}
			err = a.execute(cmd.Context(), x)
			if err != nil {
				return err
			}
			if out != "" {
				planned := make([]event.PlannedHost, len(x.outcome.Planned))
				for i, p := range x.outcome.Planned {
					planned[i] = apply.RedactPlanned(p, l.redact.String)
				}
				s := &program.Saved{RunID: "", Runbook: args[0], RunbookHash: rb.Hash, Inventory: f.inventory,
					InventoryHash: inv.Hash, Limit: f.limit, Tags: f.tags, SkipTags: f.skipTags,
					VarFlags: a.nonSensitiveVarFlags(l, f.vars), VarFiles: f.varFiles, Planned: planned}
				if err := s.Write(out); err != nil {
					return fmt.Errorf("save plan: %w", err)
				}
				msgTo := a.stdout
				if f.json {
					msgTo = a.stderr // stdout carries only JSON lines
				}
				fmt.Fprintf(msgTo, "Saved the plan to %s. Apply exactly this plan with: prova apply %s\n", out, out)
			}
			if detailed && x.outcome.Changes > 0 {
				return errChanges
			}
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&out, "out", "", "save the plan to FILE, for prova apply FILE")
	cmd.Flags().BoolVar(&detailed, "detailed-exitcode", false, "exit 2 when the plan has changes, 0 when it has none")
	return cmd
}

// nonSensitiveVarFlags drops --var values of sensitive variables: they are
// never written to a saved plan and must be given again at apply time.
func (a *app) nonSensitiveVarFlags(l *loaded, flags []string) []string {
	sens := map[string]bool{}
	for _, v := range l.rb.Variables {
		sens[v.Name] = v.Sensitive
	}
	var out []string
	for _, fl := range flags {
		name := fl
		for i := 0; i < len(fl); i++ {
			if fl[i] == '=' {
				name = fl[:i]
				break
			}
		}
		if !sens[name] {
			out = append(out, fl)
		}
	}
	return out
}
