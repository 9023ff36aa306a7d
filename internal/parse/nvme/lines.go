package nvme

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/provadev/prova/internal/parse"
)

// splitLines splits data into lines without their line endings.
func splitLines(data []byte) []string {
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// blank reports whether data holds only white space.
func blank(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }

// findJSON returns the first JSON value (object or array) that starts at the
// beginning of a line, skipping text before it, and the 1-based line where
// it starts. ok is false when there is none.
func findJSON(data []byte) (raw json.RawMessage, line int, ok bool) {
	off := 0
	for i, l := range splitLines(data) {
		t := strings.TrimLeft(l, " \t")
		if strings.HasPrefix(t, "{") || (strings.HasPrefix(t, "[") && looksLikeArray(t)) {
			dec := json.NewDecoder(bytes.NewReader(data[off:]))
			var v json.RawMessage
			if err := dec.Decode(&v); err == nil {
				return v, i + 1, true
			}
		}
		off += len(l) + 1
		if off > len(data) {
			break
		}
	}
	return nil, 0, false
}

// looksLikeArray tells "[" or "[{" (JSON) from "[verse]" or "[root@h ~]#".
func looksLikeArray(t string) bool {
	rest := strings.TrimSpace(strings.TrimPrefix(t, "["))
	return rest == "" || strings.HasPrefix(rest, "{") || strings.HasPrefix(rest, "]")
}

// jsonStart reports whether the first non-blank byte opens a JSON value.
func jsonStart(data []byte) bool {
	t := bytes.TrimSpace(data)
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
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
