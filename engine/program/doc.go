// Package program binds a parsed runbook to the module registry and makes it a
// Program: each step with its module, its result type, its dependencies
// (depends_on and every reference to another step's results), in execution
// order. It also checks a runbook statically (what `prova validate` reports)
// and defines the saved-plan format of `plan --out`.
//
// It never contacts a host: probing and applying are engine/apply's.
package program
