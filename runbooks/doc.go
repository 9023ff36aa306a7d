// Package runbooks holds the runbooks prova ships (*.hcl, with shared step
// files in lib/) and their tests: every runbook validates against the
// built-in modules and is formatted, and each is run against the lab for
// the healthy case and every fault it is meant to catch. The package has
// no Go API; runbooktest is the helper the tests share.
package runbooks
