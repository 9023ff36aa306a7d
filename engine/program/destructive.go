package program

import (
	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/engine/module"
)

// checkDestructive reports, at validate time, a step whose module says it
// would destroy data (arguments known statically) and that does not say
// destructive = true: the runbook cannot run as written, so it is an error
// before any host is contacted. Steps whose arguments are only known later
// are checked again by the engine before they run.
func checkDestructive(s *Step, ctx *hcl.EvalContext, m Meta) hcl.Diagnostics {
	d, ok := s.Module.(module.Destructive)
	if !ok || m.Destructive || s.Destructive != nil {
		// destructive = <expression not known yet> is decided at run time.
		return nil
	}
	args, diags := DecodeArgs(s, ctx)
	if diags.HasErrors() || !args.IsWhollyKnown() {
		return nil
	}
	reason := d.DestroysData(args)
	if reason == "" {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Destructive step not marked destructive",
		Detail: "Step " + s.ID() + " " + reason + ", which destroys the data there. Say destructive = true in the step " +
			"to consent, and run with --allow-destructive (optionally =PATTERN for the hosts).",
		Subject: s.DeclRange.Ptr(),
	}}
}
