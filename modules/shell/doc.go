// Package shell is the "shell" step module: it runs a command on each host
// through /bin/sh, optionally guarded by a read-only check, a file it creates
// or a file it removes, so that a guarded step runs only when needed.
//
// Arguments that can be checked alone (a non-empty command, environment
// variable names) are checked by the spec, so their diagnostics point at the
// attribute. The module does not interpret the command's output; assertions
// on it belong in later steps (changed_when, failed_when, assert).
package shell
