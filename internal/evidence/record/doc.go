// Package record writes and reads run records: the evidence of one plan or
// apply, kept under .prova/runs/<run-id>/. The record owns its format
// (version 3):
//
//	run.json       meta (runbook and inventory hashes, variables, hosts),
//	               status, per-host tallies, every step's per-host result,
//	               and the flattened list of assertions with measured value,
//	               threshold and verdict; one line of JSON, written at
//	               Create ("running") and at Close
//	events.jsonl   the trail, one JSON object per line: first the meta,
//	               then every event in the wire format of prova --json
//	               except per-line output and progress, with each finished
//	               host-step as run.json keeps it (pointing at its blobs);
//	               Close compresses it into events.jsonl.gz once run.json
//	               holds the whole record
//	raw/sha256/<hex>.gz
//	               raw tool output (stdout, stderr, evidence), redacted,
//	               capped, gzip-compressed, stored once per distinct content
//
// A Writer is an event.Observer: the CLI adds it next to the console and
// calls Close when the run ends, including after Ctrl-C, when it records
// the steps left half-done. Every string it writes is redacted, then cut
// to the caps (MaxRawBytes, MaxValueBytes, MaxRunRawBytes). The first
// failed write is reported through OnFail, so the caller can stop the run.
//
// Load reads this layout, version 2 (plain events.jsonl, indented
// run.json) and version 1 (raw/<step>/<host>.<name>.txt, every output line
// in events.jsonl). A record left "running" by a killed
// process is rebuilt from events.jsonl and marked incomplete. Prune keeps
// the last N runs and every run a kept run names as its baseline.
//
// The package does not render reports (Markdown, HTML, JUnit) and does not
// compare a run with its baseline; it gives them Load, Latest and ReadRaw.
package record
