// Package findings is the one model of "what went wrong where" shared by
// the console's Findings block, the summary event that ends prova --json,
// and the reports: every failed, warned or unreachable host-step with its
// step, cause and message, and the same grouped by cause.
//
// A Collector is an event.Observer that keeps only HostFinished outcomes
// that are not clean, plus the cause a diagnosing step (verbs_diagnose's
// "cause" output) named for each host; Add feeds it from a run record
// instead. The package renders nothing and knows no output format.
package findings
