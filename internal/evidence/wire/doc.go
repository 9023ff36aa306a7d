// Package wire is the JSON encoding of engine events shared by the
// JSON-lines stream of prova --json (package ui) and the run record's
// events.jsonl (package record): one object per line, "type" and "time"
// first, every string redacted, diagnostics as a JSON array.
//
// It encodes; it does not decide which events a stream carries (the
// record leaves out per-line output, --json leaves it out unless asked)
// and it writes nothing itself.
package wire
