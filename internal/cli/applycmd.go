package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/program"
	"github.com/provadev/prova/internal/clusterlock"
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
matches the saved plan. A saved plan is applied exactly: its variables are
the ones it was planned with, so --var, --var-file and PROVA_VAR_ are refused,
except for sensitive variables, which a plan never saves and which must be
given again (--var or PROVA_VAR_).

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
				// The plan chose its hosts and steps: a different --limit,
				// --tags or --skip-tags would apply something else.
				for _, fl := range []struct {
					name        string
					given, plan []string
				}{
					{"limit", []string{f.limit}, []string{saved.Limit}},
					{"tags", f.tags, saved.Tags},
					{"skip-tags", f.skipTags, saved.SkipTags},
				} {
					if cmd.Flags().Changed(fl.name) && strings.Join(fl.given, ",") != strings.Join(fl.plan, ",") {
						return fmt.Errorf("--%s: a saved plan is applied to the hosts and steps it was planned for (--%s %q); make a new plan with it", fl.name, fl.name, strings.Join(fl.plan, ","))
					}
				}
				if f.inventory == "" {
					f.inventory = saved.Inventory
				}
				f.limit = saved.Limit
				f.tags, f.skipTags = saved.Tags, saved.SkipTags
				path = saved.Runbook
			}
			rb, prog, err := a.loadRunbook(path, &f)
			if err != nil {
				return err
			}
			if isPlan && rb.Hash != saved.RunbookHash {
				return fmt.Errorf("the runbook %s changed since the plan was saved; run plan again", path)
			}
			if isPlan {
				if err := savedPlanInputs(rb, saved, &f, a.env, args[0]); err != nil {
					return err
				}
			}
			if f.baseline == "" {
				f.baseline = rb.Baseline
			}
			base, err := a.loadBaseline(&f)
			if err != nil {
				return err
			}
			inv, err := a.loadInventory(f.inventory, f.limit, f.gpfsOpts(cmd.Context(), a.stderr))
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
	cmd.Flags().StringVar(&f.lock.host, "lock-host", "", "inventory host that keeps the cluster lock (default: the runbook's lock_host, the inventory's prova_lock_host, the first host of group gpfs, else the first host)")
	cmd.Flags().StringVar(&f.lock.path, "lock-path", "", "lock file on the lock host (default: the runbook's lock_path, the inventory's prova_lock_path, else "+clusterlock.DefaultPath+")")
	cmd.Flags().BoolVar(&f.lock.allowUnlocked, "allow-unlocked", false, "when the lock host cannot be reached, apply without the cluster lock (said in the console and kept in the run record)")
	cmd.Flags().BoolVar(&f.onlyNew, "only-new", false, "with --baseline: run only on the hosts the baseline has not seen (re-acceptance right after an expansion)")
	return cmd
}

// savedPlanInputs sets the variables of a saved plan's apply: the plan's
// own values, plus the sensitive ones given again. Any other --var, every
// --var-file and PROVA_VAR_ of a variable that is not sensitive are
// refused: they would change what the plan means.
func savedPlanInputs(rb *config.Runbook, saved *program.Saved, f *runFlags, env []string, planFile string) error {
	sensitive := map[string]bool{}
	for _, v := range rb.Variables {
		sensitive[v.Name] = v.Sensitive
	}
	if len(f.varFiles) > 0 {
		return fmt.Errorf("--var-file %s: a saved plan is applied with the variables it was planned with; make a new plan with it (prova plan ... --var-file %s --out %s)", f.varFiles[0], f.varFiles[0], planFile)
	}
	for _, fl := range f.vars {
		name, _, _ := strings.Cut(fl, "=")
		if declared, ok := sensitive[name]; ok && !declared {
			return fmt.Errorf("--var %s: a saved plan is applied with the variables it was planned with; make a new plan with it (prova plan ... --var %s=... --out %s)", name, name, planFile)
		}
	}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		name, ok := strings.CutPrefix(k, eval.EnvPrefix)
		if !ok {
			continue
		}
		if declared, ok := sensitive[name]; ok && !declared {
			return fmt.Errorf("%s is set: a saved plan is applied with the variables it was planned with; unset it, or make a new plan with it", k)
		}
	}
	f.vars = append(append([]string{}, saved.VarFlags...), f.vars...)
	return nil
}
