// Package config parses runbook files into an unevaluated model: variables,
// locals and steps with their expressions, bodies and source ranges. Every
// problem is an hcl.Diagnostic with a source range.
//
// It does not evaluate anything, does not know which step modules exist, and
// imports no other engine package: binding steps to modules, evaluating
// expressions and ordering steps belong to engine/eval and engine/plan.
package config
