// Package record writes and reads run records: the evidence of one plan or
// apply, kept under .prova/runs/<run-id>/. The record owns its format
// (version 4):
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
//	raw/sha256/<hex>.zst
//	               raw tool output (stdout, stderr, evidence), redacted,
//	               capped, zstd-compressed, stored once per distinct
//	               content (<hex> is the SHA-256 of the content, checked
//	               when read). The first output of at least 4 KiB of each
//	               step and output name is stored alone and becomes the
//	               reference of that step and name: the same command's
//	               output on the other hosts is compressed with the
//	               reference's content as a raw zstd dictionary, and starts
//	               with a zstd skippable frame naming it
//	               ("ref raw/sha256/<hex>.zst"), so it costs about what
//	               differs from the reference. A reference never has one
//	               of its own: any blob reads from at most two files.
//
// Blobs are compressed one at a time under the Writer's lock with a
// single-threaded encoder per reference (at most 32 references, 16 MiB
// of their content, kept for the run), whatever the number of forks.
//
// The trail's lines are written by group commit: each is appended under
// the Writer's lock, and the first Observe to find no write in flight
// writes every line pending with one write(2) outside the lock; every
// Observe returns once its own line is written, so a killed run's trail
// holds every event observed, and Close waits for the write in flight.
//
// A Writer is an event.Observer: the CLI adds it next to the console and
// calls Close when the run ends, including after Ctrl-C, when it records
// the steps left half-done. Every string it writes is redacted, then cut
// to the caps (MaxRawBytes, MaxValueBytes, MaxRunRawBytes). The first
// failed write is reported through OnFail, so the caller can stop the run.
// Until Close the Writer holds each finished host-step as its encoding in
// run.json, made once with its line of the trail, not as a HostResult.
//
// Load and ReadRaw read this layout, version 3 (raw/sha256/<hex>.gz,
// gzip blobs without references), version 2 (the same blobs, plain
// events.jsonl, indented run.json) and version 1
// (raw/<step>/<host>.<name>.txt, every output line in events.jsonl). A
// record left "running" by a killed process is rebuilt from events.jsonl
// and marked incomplete. Prune keeps the last N runs and every run a kept
// run names as its baseline.
//
// The package does not render reports (Markdown, HTML, JUnit) and does not
// compare a run with its baseline; it gives them Load, Latest and ReadRaw.
package record
