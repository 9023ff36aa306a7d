package gpfs

import (
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// yRecord is one data row of an mm* -Y (colon-separated, machine readable)
// output, with its fields named by the HEADER row of the same section.
type yRecord struct {
	Line    int    // 1-based line of the row (its first physical line)
	Text    string // the row as printed (joined when it was wrapped)
	Section string // second field, e.g. "config" in "mmdiag:config:..."
	Fields  map[string]string
}

// readY reads -Y output of command cmd (the first field of every row, e.g.
// "mmgetstate"). Values are percent-decoded (%3A is ':'). A row that has
// fewer fields than its header and is followed by a line that does not start
// with "cmd:" is taken to be wrapped and joined with that line. Blank lines are
// skipped; anything else that is not a row of cmd is an error.
func readY(tool, cmd string, data []byte) ([]yRecord, error) {
	lines := text.Lines(data)
	headers := map[string][]string{}
	var out []yRecord
	prefix := cmd + ":"
	for i := 0; i < len(lines); i++ {
		text := lines[i]
		if strings.TrimSpace(text) == "" {
			continue
		}
		if !strings.HasPrefix(text, prefix) {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: text, Reason: "not a " + cmd + " -Y row"}
		}
		f := strings.Split(text, ":")
		if len(f) < 3 {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: text, Reason: "too few fields"}
		}
		section := f[1]
		if f[2] == "HEADER" {
			if _, dup := headers[section]; dup {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: text, Reason: "a second HEADER row for " + section + " (two outputs run together?)"}
			}
			headers[section] = f
			continue
		}
		h, ok := headers[section]
		if !ok {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: text, Reason: "data row before its HEADER row"}
		}
		start := i
		for len(f) < len(h) && i+1 < len(lines) && lines[i+1] != "" && !strings.HasPrefix(lines[i+1], prefix) {
			i++
			text += lines[i]
			f = strings.Split(text, ":")
		}
		if len(f) < len(h)-1 {
			return nil, &parse.Error{Tool: tool, Line: start + 1, Text: text, Reason: "fewer fields than the HEADER row"}
		}
		rec := yRecord{Line: start + 1, Text: text, Section: section, Fields: map[string]string{}}
		for j := 6; j < len(h) && j < len(f); j++ {
			if h[j] == "" {
				continue
			}
			rec.Fields[h[j]] = percentDecode(f[j])
		}
		out = append(out, rec)
	}
	if len(headers) == 0 {
		return nil, &parse.Error{Tool: tool, Reason: "no " + cmd + " -Y HEADER row (nothing printed, or not -Y output)"}
	}
	return out, nil
}

// percentDecode undoes the %XX escaping of -Y values. An invalid escape is
// kept as printed.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				b.WriteByte(hi<<4 | lo)
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
