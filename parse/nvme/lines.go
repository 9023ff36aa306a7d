package nvme

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// blank reports whether data holds only white space.
func blank(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }

// findJSON returns the first JSON value (object or array) that starts in
// the first column of a line, skipping text before it. When lines open a
// JSON value but none decodes, err is a *parse.Error for the first of them.
func findJSON(tool string, data []byte) (raw json.RawMessage, ok bool, err error) {
	off := 0
	for i, l := range text.Lines(data) {
		if strings.HasPrefix(l, "{") || (strings.HasPrefix(l, "[") && looksLikeArray(l)) {
			dec := json.NewDecoder(bytes.NewReader(data[off:]))
			var v json.RawMessage
			derr := dec.Decode(&v)
			if derr == nil {
				return v, true, nil
			}
			if err == nil {
				err = &parse.Error{Tool: tool, Line: i + 1, Text: l, Reason: "invalid JSON: " + derr.Error()}
			}
		}
		off += len(l) + 1
		if off > len(data) {
			break
		}
	}
	return nil, false, err
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
