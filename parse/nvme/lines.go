package nvme

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/provadev/prova/parse"
)

// blank reports whether data holds only white space.
func blank(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }

// findJSON returns the first JSON value (object or array) that starts in
// the first column of a line, skipping text before it. When lines open a
// JSON value but none decodes, err is a *parse.Error for the first of them.
func findJSON(tool string, data []byte) (raw json.RawMessage, ok bool, err error) {
	off := 0
	for i, b := range bytes.SplitAfter(data, []byte("\n")) {
		l := strings.TrimRight(string(b), "\r\n")
		if strings.HasPrefix(l, "{") || (strings.HasPrefix(l, "[") && looksLikeArray(l)) {
			dec := json.NewDecoder(bytes.NewReader(data[off:]))
			var v json.RawMessage
			derr := dec.Decode(&v)
			if derr == nil {
				if n, t := secondJSON(data[off+int(dec.InputOffset()):]); n >= 0 {
					return nil, false, &parse.Error{Tool: tool, Line: i + 1 + n, Text: t,
						Reason: "a second JSON document after the first: two outputs run together?"}
				}
				return v, true, nil
			}
			if err == nil {
				err = &parse.Error{Tool: tool, Line: i + 1, Text: l, Reason: "invalid JSON: " + derr.Error()}
			}
		}
		off += len(b)
	}
	return nil, false, err
}

// secondJSON returns the line, counted from the last line of a first
// document (0), where rest opens another JSON object or array in column
// 0, and its text; -1 when it does not.
func secondJSON(rest []byte) (int, string) {
	for i, b := range bytes.SplitAfter(rest, []byte("\n")) {
		l := strings.TrimRight(string(b), "\r\n")
		if strings.HasPrefix(l, "{") || (strings.HasPrefix(l, "[") && looksLikeArray(l)) {
			return i, l
		}
	}
	return -1, ""
}

// looksLikeArray tells "[" or "[{" (JSON) from "[verse]" or "[root@h ~]#".
func looksLikeArray(t string) bool {
	rest := strings.TrimSpace(strings.TrimPrefix(t, "["))
	return rest == "" || strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, "]")
}

// missing builds the error for output that lacks what the parser looks for,
// naming the nvme-cli failure when the text shows one.
func missing(tool string, data []byte, what string) error {
	if f := classify(string(data)); f != nil {
		return &parse.Error{Tool: tool, Line: f.Line, Text: f.Text, Reason: f.Reason}
	}
	if blank(data) {
		return &parse.Error{Tool: tool, Reason: "empty output, expected " + what}
	}
	return &parse.Error{Tool: tool, Reason: "no " + what + " found"}
}

// jsonError turns a JSON decoding error into a *parse.Error.
func jsonError(tool string, err error) error {
	return &parse.Error{Tool: tool, Reason: "invalid JSON: " + err.Error()}
}
