package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/program"
)

func (a *app) applyCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "apply RUNBOOK -i INVENTORY | apply PLANFILE",
		Short: "Make it so, then prove it; or apply exactly a saved plan",
		Long: `apply first validates RUNBOOK and every file it includes, as validate does; an
error stops it before any host is contacted. It then runs RUNBOOK's steps on
the inventory's hosts and writes a run record
under .prova/runs/<run-id>/. Given a file saved by plan --out, it re-probes
every host first and refuses, naming what drifted, if any host no longer
matches the saved plan; sensitive variables must be given again.

EXIT STATUS
  0    success
  1    error, a failed step, a failed assertion, or a refused plan
  130  interrupted (Ctrl-C): remote commands are cancelled, the run record is
       written and the steps left half-done are named`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			saved, isPlan, err := program.ReadSaved(path)
			if err != nil {
				return err
			}
			if isPlan {
				if f.inventory == "" {
					f.inventory = saved.Inventory
				}
				if f.limit == "" {
					f.limit = saved.Limit
				}
				f.tags, f.skipTags = saved.Tags, saved.SkipTags
				f.vars = append(append([]string{}, saved.VarFlags...), f.vars...)
				f.varFiles = append(append([]string{}, saved.VarFiles...), f.varFiles...)
				path = saved.Runbook
			}
			rb, prog, err := a.loadRunbook(path, &f)
			if err != nil {
				return err
			}
			if isPlan && rb.Hash != saved.RunbookHash {
				return fmt.Errorf("the runbook %s changed since the plan was saved; run plan again", path)
			}
			if f.baseline == "" {
				f.baseline = rb.Baseline
			}
			base, err := a.loadBaseline(&f)
			if err != nil {
				return err
			}
			inv, err := a.loadInventory(f.inventory, f.limit)
			if err != nil {
				return err
			}
			if base != nil && f.onlyNew {
				if inv, err = onlyNew(inv, base); err != nil {
					return err
				}
			}
			if isPlan && inv.Hash != saved.InventoryHash {
				return fmt.Errorf("the inventory %s changed since the plan was saved; run plan again", f.inventory)
			}
			l, err := a.prepare(rb, prog, inv, &f, false)
			if err != nil {
				return err
			}
			x := &execution{mode: apply.ModeApply, l: l, f: &f, baseline: base}
			if isPlan {
				x.expect = saved.Planned
			}
			return a.execute(cmd.Context(), x)
		},
	}
	f.add(cmd)
	cmd.Flags().StringVar(&f.baseline, "baseline", "", "compare every measured value with this earlier run (run ID, run directory, or a report.json kept in the repository); a regression beyond the threshold profile's tolerance fails")
	cmd.Flags().BoolVar(&f.onlyNew, "only-new", false, "with --baseline: run only on the hosts the baseline has not seen (re-acceptance right after an expansion)")
	return cmd
}
