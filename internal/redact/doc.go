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
// It works on text only. It does not know about cty values or HCL marks, it
// does not recognise secrets it was not given (no pattern matching for
// keys or tokens), and numbers and booleans are never redacted.
package redact
