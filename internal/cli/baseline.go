package cli

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/internal/evidence/baseline"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/inventory"
)

// loadBaseline reads the run named by --baseline (or the runbook's
// baseline setting), if any.
func (a *app) loadBaseline(f *runFlags) (*record.Record, error) {
	if f.baseline == "" {
		if f.onlyNew {
			return nil, fmt.Errorf("--only-new needs a baseline: --baseline RUN")
		}
		return nil, nil
	}
	path, err := baseline.Resolve(f.baseline, f.recordDir)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %w", f.baseline, err)
	}
	load := baseline.Load
	if f.forceBaseline {
		load = baseline.LoadForce
	}
	rec, err := load(path)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %w", f.baseline, err)
	}
	if rec.Incomplete {
		fmt.Fprintf(a.stderr, "Warning: the baseline %s is incomplete (%s); --force-baseline uses what it recorded, and --only-new counts only the hosts that finished its last step as known\n",
			f.baseline, rec.IncompleteReason)
	}
	f.baseline = path
	return rec, nil
}

// onlyNew keeps the inventory's hosts that the baseline has not seen.
func onlyNew(inv *inventory.Inventory, base *record.Record) (*inventory.Inventory, error) {
	names := inv.Names()
	fresh := baseline.OnlyNew(names, base)
	if len(fresh) == 0 {
		return nil, fmt.Errorf("--only-new: every host of the inventory is in the baseline %s; nothing new to accept", baseline.Name(base))
	}
	return inv.Limit(strings.Join(fresh, ","))
}

// compareBaseline compares the run just recorded in dir with base, prints
// the comparison, and reports whether a regression failed it.
func (a *app) compareBaseline(dir string, base *record.Record, quiet bool) (bool, error) {
	cur, err := record.Load(dir)
	if err != nil {
		return false, err
	}
	cmp := baseline.Compare(cur, base, baseline.Default())
	if !quiet {
		fmt.Fprintln(a.stdout)
		if err := cmp.WriteText(a.stdout, false); err != nil {
			return false, err
		}
	}
	return cmp.Failed > 0, nil
}
