// Package eval turns a parsed runbook into values: it resolves variables
// (defaults < PROVA_VAR_name < --var-file < --var, then type conversion and
// validation), evaluates locals in dependency order, and builds the
// hcl.EvalContext a step sees on a host: var, local, host, group,
// inventory, path, the current host's results of earlier steps (step.NAME)
// and every host's (per_host.NAME), plus the function library.
//
// A step's context is built in two layers: StepScope, once per step, holds
// everything its hosts share (the base names, each, the per_host.* results
// it reads, and its unknown step.* results when there are no results yet);
// StepScope.Host adds host.*, this host's step.* and self in a child
// context. Refs says which
// expressions can differ between hosts; StepScope.Key names the inputs of
// one that does on a host without building the host's context, and Memo
// keeps its value per key, so that the engine evaluates an expression once
// per distinct input rather than once per host; ExprMemo does the same for
// each operand of an operation. Both rely on every library
// function being pure (functions_test.go lists them).
// A Memo whose one per-host input is a host.* traversal keeps its values
// by the id the run's table of that traversal gives each inventory host
// (hostParts), read without a lock or a key.
// FastTemplate renders a string template's plain parts without cty's
// 512-bit number formatting, with the same result. StepScope.Compile
// gives the commonest per-host shapes (a template of literals and
// interpolations, a traversal of host.* or step.*) a compiled form that
// evaluates on a host without its context, from the run's table of each
// host.* traversal (hostTable); it gives a value only where hcl would give
// exactly that value and no diagnostic, and otherwise tells the caller to
// evaluate with hcl. Results records a skipped or planned result (or one
// made by a function) by kind, an inventory host's as a byte in its
// step's table, and makes its value only when an expression first reads
// that step; each step's results have their own lock. True reads a known
// bool without cty's Equals. Value evaluates an expression with a tuple
// for expression at its top (alltrue([for h, r in per_host.x : r.rc ==
// 0]) and the like, through calls, operations and parentheses) with its
// body once per distinct value of the iteration variables' traversals it
// reads, handing anything else, and any diagnostic, back to hcl: the
// value and diagnostics are always hcl's. alltrue, anytrue, sum, mean and
// median fold a tuple's elements without cty's per-element index numbers.
//
// It does not run anything and does not decide step order (engine/program).
// During plan, results of steps are unknown values of the right type, so
// expressions that use them are "known after apply" rather than guessed.
package eval
