// Package ui renders what the engine reports. The engine never formats
// output: the human console (Console), the JSON-lines stream (JSON) and the
// run record (package record) are all event.Observers. The JSON stream and
// the record share the event encoding of internal/evidence/wire; the JSON
// stream leaves per-line output out unless asked (WithOutput) and ends
// each run with a Summary event built from internal/evidence/findings.
//
// The console prefixes host lines with a host column padded to the widest
// host of the run and coloured by a stable hash of the name, prints a header
// per step and a result line per host, renders plans grouped by step, a
// recap table at the end, and HCL diagnostics with source snippets and the
// values of the expressions a failed assertion referenced. Colour is decided
// once per Console from Options (auto honours the writer's TTY, NO_COLOR and
// TERM=dumb) and set on each *color.Color it owns; the global color.NoColor
// is never touched.
//
// Every string is passed through a redact.Redactor before it is written.
//
// The package does not decide whether a writer is a terminal (the CLI does,
// with x/term), does not read the environment or any file itself, and does
// not render reports of past runs.
package ui
