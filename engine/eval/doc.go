// Package eval turns a parsed runbook into values: it resolves variables
// (defaults < PROVA_VAR_name < --var-file < --var, then type conversion and
// validation), evaluates locals in dependency order, and builds the
// hcl.EvalContext a step sees on a host: var, local, host, group,
// inventory, path, the current host's results of earlier steps (step.NAME)
// and every host's (per_host.NAME), plus the function library.
//
// It does not run anything and does not decide step order (engine/plan).
// During plan, results of steps are unknown values of the right type, so
// expressions that use them are "known after apply" rather than guessed.
package eval
