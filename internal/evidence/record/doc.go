// Package record writes and reads run records: the evidence of one plan or
// apply, kept under .prova/runs/<run-id>/.
//
//	run.json       meta (runbook and inventory hashes, variables, hosts),
//	               status, per-host tallies, every step's per-host result,
//	               and the flattened list of assertions with measured value,
//	               threshold and verdict
//	events.jsonl   every event, one JSON object per line (as prova --json)
//	raw/<step>/<host>.<name>.txt
//	               raw tool output: evidence, stdout and stderr, referenced
//	               from run.json by relative path
//
// A Writer is an event.Observer: the CLI adds it next to the console and
// calls Close when the run ends, including after Ctrl-C, when it records
// the steps left half-done. Every string it writes is redacted.
//
// The package does not render reports (Markdown, HTML, JUnit) and does not
// compare a run with its baseline; it gives them Load, Latest and ReadRaw.
// It never deletes or prunes old records.
package record
