// Package parsecheck is the test kit behind the parsers' "never guess"
// rule: given a parser and one real output of its tool, it runs the cases
// every parser must survive (empty output, unrelated text, a login banner,
// two outputs run together, CRLF line ends, indentation of JSON, and the
// output cut at every byte) and says which ones it does not.
//
// The rule it checks: a parser returns what the text says, or an error
// naming the tool and the line; it never returns a complete-looking answer
// for text it did not understand. Concretely, for a real output FULL:
//
//   - empty and blank output: an error, or a result that says so (a true
//     bool field named Empty, NoDevice, NoDevices or NotInstalled);
//   - unrelated text, an HTML page, "command not found": an error;
//   - a login banner or shell prompt line before FULL: an error or the
//     result of FULL;
//   - FULL twice: an error or the result of FULL (never twice the rows);
//   - FULL with CRLF line ends: the result of FULL;
//   - JSON output compacted, or indented with tabs: the result of FULL;
//   - a 1,000-character line of garbage: an error that quotes at most 200
//     characters of it (or a result);
//   - FULL cut inside a line: an error or a result marked truncated (a
//     true bool field named Truncated); cut at a line end, where the text
//     is a shorter but well-formed output, any result or error.
//
// It does not know any tool's format: results are compared as JSON.
package parsecheck
