package elbencho

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolResfile = "elbencho --resfile"

// Resfile is the content of an elbencho --resfile: one section per run.
type Resfile struct {
	Sections []Section `json:"sections"`
}

// Section is one run in a results file.
type Section struct {
	ISODate     string   `json:"iso_date"`
	Label       string   `json:"label,omitempty"`
	CommandLine []string `json:"command_line,omitempty"`
	Phases      []Phase  `json:"phases"`
}

// Result returns the phases of all sections in order.
func (f Resfile) Result() Result {
	r := Result{Phases: []Phase{}}
	for _, s := range f.Sections {
		r.Phases = append(r.Phases, s.Phases...)
	}
	return r
}

// ParseResfile reads an elbencho --resfile.
func ParseResfile(data []byte) (*Resfile, error) {
	if err := parse.Complete("elbencho --resfile", data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	f := &Resfile{Sections: []Section{}}
	start := -1
	seen := map[string]int{}
	flush := func(end int) error {
		if start < 0 {
			return nil
		}
		s := &f.Sections[len(f.Sections)-1]
		// elbencho appends one section per phase; two phases of one run
		// may share the date and command line, never the whole text.
		key := strings.Join(lines[start-1:end], "\n")
		if first, dup := seen[key]; dup {
			return &parse.Error{Tool: toolResfile, Line: start, Text: lines[start-1],
				Reason: fmt.Sprintf("the same section as at line %d, again: the file pasted twice?", first)}
		}
		seen[key] = start
		r, err := parseTable(toolResfile, lines[start:end], start)
		if err != nil {
			return err
		}
		s.Phases = r.Phases
		return nil
	}
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, "ISO DATE: "):
			if err := flush(i); err != nil {
				return nil, err
			}
			f.Sections = append(f.Sections, Section{ISODate: strings.TrimSpace(strings.TrimPrefix(l, "ISO DATE: ")), Phases: []Phase{}})
			start = i + 1
		case start < 0:
			if strings.TrimSpace(l) != "" {
				return nil, &parse.Error{Tool: toolResfile, Line: i + 1, Text: l, Reason: `results file must start with "ISO DATE: "`}
			}
		case strings.HasPrefix(l, "LABEL: "):
			f.Sections[len(f.Sections)-1].Label = strings.TrimPrefix(l, "LABEL: ")
		case strings.HasPrefix(l, "COMMAND LINE: "):
			f.Sections[len(f.Sections)-1].CommandLine = splitCommandLine(strings.TrimPrefix(l, "COMMAND LINE: "))
		}
	}
	if err := flush(len(lines)); err != nil {
		return nil, err
	}
	if len(f.Sections) == 0 {
		return nil, &parse.Error{Tool: toolResfile, Reason: `no "ISO DATE: " section found`}
	}
	return f, nil
}

// splitCommandLine reads `"elbencho" "--write" "-s" "1g" ` (elbencho
// quotes each argument without escaping).
func splitCommandLine(s string) []string {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
	if s == "" {
		return nil
	}
	return strings.Split(s, `" "`)
}
