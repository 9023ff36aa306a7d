package ofed

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Result is the version ofed_info reported.
type Result struct {
	// NotInstalled is true when the output says ofed_info does not exist
	// (inbox rdma-core hosts) or is empty.
	NotInstalled bool   `json:"not_installed"`
	Message      string `json:"message,omitempty"`
	// Package is the distribution prefix: "MLNX_OFED_LINUX",
	// "OFED-internal", ...; empty for `ofed_info -n`.
	Package string `json:"package,omitempty"`
	// Version is the version as printed, e.g. "5.8-1.0.1.1".
	Version string `json:"version,omitempty"`
	// Parts are the numbers of Version in order ([5 8 1 0 1 1]); compare
	// with CompareVersions.
	Parts []int `json:"parts,omitempty"`
	// Base is the upstream OFED release in brackets on plain ofed_info's
	// first line, e.g. "OFED-5.8-1.0.1".
	Base string `json:"base,omitempty"`
	// Raw is the version line as printed.
	Raw string `json:"raw,omitempty"`
	// Full is true when more lines followed (plain `ofed_info`).
	Full bool `json:"full"`
}

const tool = "ofed_info"

var (
	versionLine = lazyre.New(`^(?:([A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z][A-Za-z0-9_]*)*)-)?([0-9]+(?:[.-][0-9A-Za-z]+)*)(?:\s+\(([^)]*)\))?:?$`)
	digitRun    = lazyre.New(`[0-9]+`)
)

// Parse reads `ofed_info -s`, `ofed_info -n` or `ofed_info` output.
func Parse(data []byte) (*Result, error) {
	if err := parse.Complete("ofed_info -s", data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if strings.Contains(line, "command not found") || strings.Contains(line, "No such file or directory") {
			if !strings.Contains(line, "ofed_info") {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "another command is missing, not ofed_info"}
			}
			return &Result{NotInstalled: true, Message: line}, nil
		}
		m := versionLine.FindStringSubmatch(line)
		if m == nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a version like MLNX_OFED_LINUX-5.8-1.0.1.1:"}
		}
		res := &Result{Package: m[1], Version: m[2], Base: m[3], Raw: line, Parts: Parts(m[2])}
		for k, rest := range lines[i+1:] {
			if t := strings.TrimSpace(rest); t == line {
				return nil, &parse.Error{Tool: tool, Line: i + k + 2, Text: rest, Reason: "the version line again: two outputs run together?"}
			} else if t != "" {
				res.Full = true
			}
		}
		return res, nil
	}
	return &Result{NotInstalled: true, Message: "ofed_info printed nothing"}, nil
}

// Parts returns the numbers in a version string in order:
// "5.8-1.0.1.1" gives [5 8 1 0 1 1].
func Parts(version string) []int {
	var out []int
	for _, d := range digitRun.FindAllString(version, -1) {
		n, err := strconv.Atoi(d)
		if err != nil { // longer than an int: cap, keeps the order right
			n = int(^uint(0) >> 1)
		}
		out = append(out, n)
	}
	return out
}

// CompareVersions compares two OFED versions by their numeric parts and
// returns -1, 0 or +1. A prefix such as "MLNX_OFED_LINUX-" is ignored, and
// missing trailing parts count as 0, so "5.8" == "5.8-0.0.0.0".
func CompareVersions(a, b string) int {
	pa, pb := Parts(a), Parts(b)
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x = pa[i]
		}
		if i < len(pb) {
			y = pb[i]
		}
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
	}
	return 0
}

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "ofed-info", Command: "ofed_info -s", Parse: func(b []byte) (any, error) { return Parse(b) }},
	}
}
