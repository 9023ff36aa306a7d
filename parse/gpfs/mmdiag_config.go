package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// DiagConfig is the output of mmdiag --config: the values the running daemon
// actually uses, which may differ from what mmlsconfig stores until the
// daemon restarts.
type DiagConfig struct {
	Attrs []DiagAttr `json:"attrs"`
}

// DiagAttr is one effective attribute. Changed is true when the text form
// marked the line with '!' (the value differs from the default) or when the
// -Y "changed" column is not empty; ChangedHow keeps that column ("static",
// ...).
type DiagAttr struct {
	Name       string `json:"name"`
	Value      string `json:"value"`
	Changed    bool   `json:"changed"`
	ChangedHow string `json:"changed_how,omitempty"`
}

// Get returns the value of the attribute name (case-insensitive).
func (d *DiagConfig) Get(name string) (DiagAttr, bool) {
	for _, a := range d.Attrs {
		if strings.EqualFold(a.Name, name) {
			return a, true
		}
	}
	return DiagAttr{}, false
}

// ParseMmdiagConfig reads the human-readable output of mmdiag --config:
// a "=== mmdiag: config ===" banner, then lines " name value" or
// "! name value" ('!' marks a value changed from its default). An
// attribute line before the banner, a second banner or an attribute
// printed twice is an error: the text is not one mmdiag --config output.
func ParseMmdiagConfig(data []byte) (*DiagConfig, error) {
	const tool = "mmdiag --config"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	d := &DiagConfig{Attrs: []DiagAttr{}}
	banner := 0
	seen := map[string]int{}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "===") && strings.HasSuffix(line, "===") {
			if line != "=== mmdiag: config ===" {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "another mmdiag section than config"}
			}
			if banner > 0 {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
					Reason: fmt.Sprintf("a second banner (the first is on line %d): two outputs run together?", banner)}
			}
			banner = i + 1
			continue
		}
		if banner == 0 {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: `text before the "=== mmdiag: config ===" banner: not mmdiag --config output`}
		}
		changed := false
		if strings.HasPrefix(line, "!") {
			changed = true
			line = strings.TrimSpace(line[1:])
		}
		name, value, _ := strings.Cut(line, " ")
		if !validAttr(name) {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected '[!] attribute value'"}
		}
		if first, dup := seen[strings.ToLower(name)]; dup {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: fmt.Sprintf("%s again (first on line %d)", name, first)}
		}
		seen[strings.ToLower(name)] = i + 1
		d.Attrs = append(d.Attrs, DiagAttr{Name: name, Value: strings.TrimSpace(value), Changed: changed})
	}
	if banner == 0 {
		return nil, &parse.Error{Tool: tool, Reason: `no "=== mmdiag: config ===" banner (nothing printed?)`}
	}
	return d, nil
}

// ParseMmdiagConfigY reads "mmdiag --config -Y": rows
// "mmdiag:config:0:1:::<name>:<value>:<changed>:" (values percent-encoded).
func ParseMmdiagConfigY(data []byte) (*DiagConfig, error) {
	const tool = "mmdiag --config -Y"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	recs, err := readY(tool, "mmdiag", data)
	if err != nil {
		return nil, err
	}
	d := &DiagConfig{Attrs: []DiagAttr{}}
	for _, r := range recs {
		if r.Section != "config" {
			continue
		}
		name := r.Fields["name"]
		if !validAttr(name) {
			return nil, &parse.Error{Tool: tool, Line: r.Line, Text: r.Text, Reason: "missing attribute name"}
		}
		how := r.Fields["changed"]
		d.Attrs = append(d.Attrs, DiagAttr{Name: name, Value: r.Fields["value"], Changed: how != "", ChangedHow: how})
	}
	return d, nil
}
