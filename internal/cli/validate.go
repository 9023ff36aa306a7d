package cli

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/program"
)

func (a *app) validateCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "validate RUNBOOK",
		Short: "Check a runbook without contacting any host",
		Long: `validate parses RUNBOOK (a file or a directory of .hcl files), binds every step
to its module and checks it statically: syntax, unknown modules and arguments
(with "did you mean"), types, undefined references, duplicate step names and
reference cycles. Every problem is printed with file:line:col and a snippet.
Variables without a value are treated as unknown.

EXIT STATUS
  0  the runbook is valid
  1  it is not`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rb, prog, diags := a.parseAndBind(args[0])
			srcs := sourcesOf(rb)
			if rb != nil && prog != nil {
				diags = append(diags, a.staticCheck(rb, prog, &f, srcs)...)
			}
			diags = dedupe(diags)
			a.printDiags(srcs, diags)
			if diags.HasErrors() {
				return errSilent{fmt.Errorf("%s is not valid", args[0])}
			}
			fmt.Fprintf(a.stdout, "%s: valid (%d steps)\n", args[0], len(prog.Steps))
			return nil
		},
	}
	f.addVarFlags(cmd)
	return cmd
}

// staticCheck is what validate checks beyond parsing and binding: variables
// (those without a value are unknown), locals, and every step against its
// module's schema, with no inventory and no host contacted. Variable files'
// sources are added to srcs for the diagnostics' snippets.
func (a *app) staticCheck(rb *config.Runbook, prog *program.Program, f *runFlags, srcs map[string][]byte) hcl.Diagnostics {
	vars, diags := eval.ResolveVariables(rb, eval.Inputs{Env: a.env, Files: f.varFiles, Flags: f.vars, Partial: true})
	for k, v := range vars.Sources {
		srcs[k] = v
	}
	if diags.HasErrors() {
		return diags
	}
	scope := eval.NewScope(vars.Values, nil, nil, rb.BaseDir, prog.ResultTypes())
	locals, d := eval.EvalLocals(rb, scope.StaticBase())
	diags = append(diags, d...)
	scope.Locals = locals
	return append(diags, program.Validate(prog, scope)...)
}

// dedupe drops diagnostics repeated with the same summary and range.
func dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	seen := map[string]bool{}
	var out hcl.Diagnostics
	for _, d := range diags {
		key := d.Summary + "|" + d.Detail
		if d.Subject != nil {
			key += "|" + d.Subject.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d)
	}
	return out
}
