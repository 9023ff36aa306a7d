// Package cli wires prova's subcommands: it parses flags into option
// structs, builds the root context (Ctrl-C cancels it), assembles the module
// and parser registries, the inventory and the observers, and maps errors to
// the fixed exit codes in one place (exitCode). It holds no state between
// calls to Main, so tests run it in-process.
package cli
