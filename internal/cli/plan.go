package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/program"
)

func (a *app) planCmd() *cobra.Command {
	var f runFlags
	var out string
	var detailed bool
	cmd := &cobra.Command{
		Use:   "plan RUNBOOK -i INVENTORY",
		Short: "Show what apply would change and what would fail, running only read-only probes",
		Long: `plan first validates RUNBOOK and every file it includes, as validate does; an
error stops it before any host is contacted. It then evaluates RUNBOOK against
the inventory. Steps whose module only reads run for real (their commands are
probes), so their results feed later steps and assertions whose inputs are
known are evaluated; steps that change hosts are asked what apply would do.
Nothing on any host is changed. Per host it prints "~ change", "= no change",
"! would fail" (with the diagnostic apply would print), "? known after apply"
(a value downstream of a planned change) or "- skip". Steps that would destroy
data are marked DESTRUCTIVE.

EXIT STATUS
  0  success (with --detailed-exitcode: and no changes)
  1  error, or apply would certainly fail (a check or assertion that fails, an
     unreachable host, a destructive step not allowed)
  2  with --detailed-exitcode: nothing would fail, and there are changes`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rb, prog, err := a.loadRunbook(args[0], &f)
			if err != nil {
				return err
			}
			inv, err := a.loadInventory(f.inventory, f.limit, f.gpfsOpts(cmd.Context(), a.stderr))
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
				varFlags, err := savedVarFlags(l)
				if err != nil {
					return fmt.Errorf("save plan: %w", err)
				}
				s := &program.Saved{RunID: "", Runbook: args[0], RunbookHash: rb.Hash, Inventory: f.inventory,
					InventoryHash: inv.Hash, Limit: f.limit, Tags: f.tags, SkipTags: f.skipTags,
					VarFlags: varFlags, VarFiles: f.varFiles, Planned: planned}
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

// savedVarFlags pins every variable that is not sensitive, as --var
// NAME=TEXT, for a saved plan: whatever source gave the value, apply uses
// exactly it. Sensitive values are never written; they are given again.
func savedVarFlags(l *loaded) ([]string, error) {
	var out []string
	for _, v := range l.rb.Variables {
		if v.Sensitive {
			continue
		}
		val, ok := l.vars.Values[v.Name]
		if !ok {
			continue
		}
		text, err := eval.FlagText(v, val)
		if err != nil {
			return nil, err
		}
		out = append(out, v.Name+"="+text)
	}
	return out, nil
}
