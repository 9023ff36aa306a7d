// Package redact hides sensitive values (variables declared sensitive,
// passwords found in inventories) in everything prova writes: the console,
// the JSON-lines stream and the run record.
//
// A Redactor replaces every occurrence of every registered secret with the
// placeholder "(sensitive value)". Any non-empty secret is redacted, however
// short: a one-character secret blanks out that character everywhere, which
// is ugly but never leaks. Where occurrences of different secrets overlap,
// the whole overlapping stretch becomes one placeholder, so no part of any
// secret survives.
//
// Every part of a secret that is Fragment (8) bytes or longer is redacted
// too, wherever it appears: text shortened before it reached the redactor
// (a module's one-line plan summary cut at a width) keeps no part of the
// secret that long. Shorter parts of a cut secret may remain. The cost is
// one table lookup per byte of text once a secret of 8 bytes or more is
// registered (BenchmarkString).
//
// It works on text only. It does not know about cty values or HCL marks, it
// does not recognise secrets it was not given (no pattern matching for
// keys or tokens), and numbers and booleans are never redacted.
package redact
