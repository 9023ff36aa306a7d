// Package lazyre is a regular expression compiled on its first use rather
// than when the program starts.
//
// The parsers, the inventory's readers and the evidence packages declare
// their expressions as package variables; compiled with regexp.MustCompile
// they were compiled by every prova process at start-up, whatever it ran:
// about a megabyte allocated and a few milliseconds of CPU before main for
// a run that parses nothing (docs/performance.md, issue 15). A Regexp is
// compiled once, by the first caller, and is safe for concurrent use, as
// *regexp.Regexp is. An expression that does not compile panics at that
// first use, as MustCompile would have at start-up; internal/arch's
// TestEveryLazyExpressionCompiles finds every call of New in the source
// and compiles its expression before that, and Compiled, read by the
// tests of the packages that declare expressions before any test runs,
// shows that no package initialiser compiled one. New keeps no list of
// what it made: a package variable declared with it and a string literal
// is static data, with no initialiser (see New).
//
// It does not wrap the whole regexp API, only the methods its users call.
// It is a leaf: it imports only the standard library (internal/arch).
package lazyre
