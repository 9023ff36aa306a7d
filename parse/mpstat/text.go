package mpstat

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const tool = "mpstat"

var banner = lazyre.New(`^(\S+)\s+(\S+)\s+\(([^)]*)\)\s+(\S+)\s+(\S+)\s+\((\d+) CPU\)$`)

// Parse reads mpstat text or JSON (-o JSON) output; JSON is recognised by
// its leading '{'.
func Parse(data []byte) (*Result, error) {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		return ParseJSON(data)
	}
	return ParseText(data)
}

// header is the CPU table header currently in force.
type header struct {
	prefix  int      // tokens before "CPU" (time, AM/PM, "Average:")
	cols    []string // column names after "CPU"
	util    bool     // a CPU utilisation table (has %idle)
	average bool     // the Average block
}

type textParser struct {
	res         *Result
	hdr         *header
	newInterval bool
}

// ParseText reads the text output of mpstat [-P ...] interval [count].
func ParseText(data []byte) (*Result, error) {
	complete := !text.EndsMidLine(data)
	lines := text.Lines(data)
	if text.Blank(data) {
		return nil, &parse.Error{Tool: tool, Reason: "nothing printed (mpstat always prints its banner line)"}
	}
	p := textParser{res: &Result{Intervals: []Interval{}}}
	for i, raw := range lines {
		if i == len(lines)-1 && !complete {
			// Cut mid-line when mpstat was stopped: the cut line may read
			// as a whole one ("86.0" for "86.00"), so it is never read.
			p.res.Truncated = true
			break
		}
		if reason := p.line(raw); reason != "" {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: reason}
		}
	}
	return p.res, nil
}

func hasDigit(s string) bool { return strings.IndexFunc(s, unicode.IsDigit) >= 0 }

func (p *textParser) line(raw string) string {
	line := strings.TrimSpace(raw)
	if line == "" {
		return ""
	}
	if strings.HasPrefix(line, "Usage:") || strings.HasPrefix(line, "Options are:") ||
		strings.HasPrefix(line, "[ -") || strings.HasPrefix(line, "Not that many processors") {
		return "mpstat printed its usage text (invalid option or CPU number)"
	}
	f := strings.Fields(line)
	for i, tok := range f {
		if tok == "CPU" || tok == "NODE" {
			if i+1 == len(f) || !hasDigit(f[i+1]) {
				p.setHeader(f, i)
				return ""
			}
			break
		}
	}
	if p.hdr == nil {
		if len(p.res.Intervals) > 0 || p.res.Host.Sysname != "" {
			return "expected a table header with a CPU column"
		}
		m := banner.FindStringSubmatch(line)
		if m == nil {
			return "expected the mpstat banner 'Linux <release> (<host>) <date> _<arch>_ (<n> CPU)'"
		}
		n, _ := strconv.Atoi(m[6])
		p.res.Host = Host{Sysname: m[1], Release: m[2], Nodename: m[3], Date: m[4], Machine: strings.Trim(m[5], "_"), CPUs: n}
		return ""
	}
	if !p.hdr.util {
		return "" // -I / -n tables are not read
	}
	return p.row(f)
}

func (p *textParser) setHeader(f []string, cpuAt int) {
	h := &header{prefix: cpuAt, cols: f[cpuAt+1:], average: !hasDigit(strings.Join(f[:cpuAt], " "))}
	h.util = f[cpuAt] == "CPU"
	if h.util {
		h.util = false
		for _, c := range h.cols {
			if c == "%idle" {
				h.util = true
			}
		}
	}
	p.hdr, p.newInterval = h, true
}

func (p *textParser) row(f []string) string {
	h := p.hdr
	// Read from the right: the label before the CPU column may have a
	// different number of tokens than the header's (no AM/PM on Average
	// rows, which without -P follow the interval rows directly).
	at := len(f) - 1 - len(h.cols)
	if at < 1 {
		return "row has " + strconv.Itoa(len(f)) + " fields, fewer than the table header's columns"
	}
	label := strings.Join(f[:at], " ")
	average := !hasDigit(label)
	switch {
	case !average && h.average:
		return "interval row inside the Average block"
	case !average && at != h.prefix, average && h.average && at != h.prefix:
		return "row has " + strconv.Itoa(len(f)) + " fields, the table header " + strconv.Itoa(h.prefix+1+len(h.cols))
	case average && at > 3:
		return "row label is longer than an Average label"
	}
	load := CPULoad{CPU: f[at]}
	if load.CPU != "all" {
		if _, err := strconv.Atoi(load.CPU); err != nil {
			return "CPU is neither 'all' nor a number"
		}
	}
	for i, name := range h.cols {
		v, err := strconv.ParseFloat(strings.Replace(f[at+1+i], ",", ".", 1), 64)
		if err != nil || v != v {
			return name + " is not a number"
		}
		setColumn(&load, name, v)
	}
	if average {
		p.res.Average = append(p.res.Average, load)
		return ""
	}
	ivs := &p.res.Intervals
	if p.newInterval || len(*ivs) == 0 || (*ivs)[len(*ivs)-1].Time != label {
		*ivs = append(*ivs, Interval{Time: label})
		p.newInterval = false
	}
	last := &(*ivs)[len(*ivs)-1]
	last.CPUs = append(last.CPUs, load)
	return ""
}

// setColumn stores one percentage by its column name; older sysstat
// names (%user, %system) are accepted.
func setColumn(c *CPULoad, name string, v float64) {
	switch strings.TrimPrefix(name, "%") {
	case "usr", "user":
		c.Usr = v
	case "nice":
		c.Nice = v
	case "sys", "system":
		c.Sys = v
	case "iowait":
		c.IOWait = v
	case "irq":
		c.IRQ = v
	case "soft":
		c.Soft = v
	case "steal":
		c.Steal = v
	case "guest":
		c.Guest = v
	case "gnice":
		c.GNice = v
	case "idle":
		c.Idle = v
	}
}
