package elbencho

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/bench"
	"github.com/provadev/prova/parse/text"
)

const toolConsole = "elbencho"

var (
	// A phase starts with its name and the elapsed row, e.g.
	// "WRITE       Elapsed time     :     11.559s     11.559s".
	phaseRowRe = lazyre.New(`^([A-Z][A-Z0-9_]*)\s+(Elapsed (?:time|ms))\s*:\s*(.*)$`)
	contRowRe  = lazyre.New(`^\s+(\S[^:]*?)\s*:\s*(.*)$`)
	// iterationRe is the line elbencho prints before each iteration of
	// --iterations N (N > 1).
	iterationRe = lazyre.New(`^\[Starting iteration (\d+) of (\d+)\.\.\.\]$`)
)

// ParseConsole reads elbencho's console output: the result table of every
// phase, and --livecsv rows when they were sent to stdout.
func ParseConsole(data []byte) (*Result, error) {
	if err := parse.Complete("elbencho", data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	// One run prints the "OPERATION  RESULT TYPE ..." header once above
	// its phases, or, with --iterations N, once per iteration right after
	// "[Starting iteration K of N...]" (elbencho's Coordinator). A header
	// without its own iteration line, or an iteration out of turn, is a
	// second run.
	header, iteration, announced := 0, 0, false
	for i, l := range lines {
		if text.Terminal(l) {
			return nil, &parse.Error{Tool: toolConsole, Line: i + 1, Text: l,
				Reason: "a login banner or shell prompt, not elbencho output: paste the tool's output only"}
		}
		if m := iterationRe.FindStringSubmatch(strings.TrimSpace(l)); m != nil {
			k, _ := strconv.Atoi(m[1])
			if k != iteration+1 {
				return nil, &parse.Error{Tool: toolConsole, Line: i + 1, Text: l,
					Reason: fmt.Sprintf("iteration %d after iteration %d: two outputs run together?", k, iteration)}
			}
			iteration, announced = k, true
			continue
		}
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "OPERATION" && f[1] == "RESULT" && f[2] == "TYPE" {
			if header > 0 && !announced {
				return nil, &parse.Error{Tool: toolConsole, Line: i + 1, Text: l,
					Reason: fmt.Sprintf("a second result table header (the first is on line %d) without an iteration line: two outputs run together?", header)}
			}
			header, announced = i+1, false
		}
	}
	r, err := parseTable(toolConsole, lines, 0)
	if err != nil {
		return nil, err
	}
	if len(r.Phases) == 0 && len(r.Live) == 0 {
		return nil, noTable(toolConsole, lines)
	}
	return r, nil
}

// noTable explains why no result table was found.
func noTable(tool string, lines []string) error {
	for i, l := range lines {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "ERROR") || strings.Contains(t, "Skipping stats print") {
			return &parse.Error{Tool: tool, Line: i + 1, Text: l, Reason: "elbencho reported an error instead of results"}
		}
	}
	return &parse.Error{Tool: tool, Reason: "no result table found"}
}

// parseTable reads result table rows from lines; base is the 0-based index
// of lines[0] in the whole output, for error line numbers.
func parseTable(tool string, lines []string, base int) (*Result, error) {
	r := &Result{Phases: []Phase{}}
	var cur *Phase
	var live *liveHeader
	errAt := func(i int, format string, a ...any) error {
		return &parse.Error{Tool: tool, Line: base + i + 1, Text: lines[i], Reason: fmt.Sprintf(format, a...)}
	}
	closePhase := func() {
		if cur != nil {
			cur.normalise()
			r.Phases = append(r.Phases, *cur)
			cur = nil
		}
	}
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if m := phaseRowRe.FindStringSubmatch(l); m != nil {
			closePhase()
			cur = &Phase{Name: m[1]}
			if err := cur.addRow(base+i+1, m[2], m[3]); err != nil {
				return nil, errAt(i, "%v", err)
			}
			continue
		}
		if cur != nil {
			if m := contRowRe.FindStringSubmatch(l); m != nil {
				if err := cur.addRow(base+i+1, m[1], m[2]); err != nil {
					return nil, errAt(i, "%v", err)
				}
				continue
			}
		}
		closePhase() // "---", a header, or any other text ends the phase
		switch {
		case strings.HasPrefix(l, liveHeaderPrefix):
			live = newLiveHeader(l)
		case live != nil && liveRowRe.MatchString(l):
			row, err := live.parse(l)
			if err != nil {
				return nil, errAt(i, "%v", err)
			}
			r.Live = append(r.Live, row)
		}
	}
	closePhase()
	return r, nil
}

// addRow parses one table row of the phase.
func (p *Phase) addRow(line int, label, rest string) error {
	row := Row{Line: line, Label: label}
	if strings.HasPrefix(rest, "[") {
		if !strings.HasSuffix(rest, "]") {
			return fmt.Errorf("%s: list not closed with ']'", label)
		}
		row.List = strings.Fields(strings.TrimSuffix(strings.TrimPrefix(rest, "["), "]"))
		p.Rows = append(p.Rows, row)
		return p.listRow(label, row.List)
	}
	f := strings.Fields(rest)
	if len(f) != 2 {
		return fmt.Errorf("%s: want FIRST DONE and LAST DONE values, got %d", label, len(f))
	}
	row.First, row.Last = f[0], f[1]
	p.Rows = append(p.Rows, row)
	for k, c := range []*Column{&p.First, &p.Last} {
		if err := p.valueRow(label, f[k], c); err != nil {
			return fmt.Errorf("%s: %v", label, err)
		}
	}
	return nil
}

// valueRow stores a two-column row's value in c when the label is known.
func (p *Phase) valueRow(label, v string, c *Column) error {
	var dst *float64
	conv := num
	mbToMiB := false
	switch {
	case label == "Elapsed time":
		dst, conv = &c.ElapsedMs, humanMs
	case label == "Elapsed ms":
		dst = &c.ElapsedMs
	case label == "IOPS", label == "IOPS total":
		dst = &c.IOPS
	case label == "Throughput MiB/s", label == "MiB/s total":
		dst = &c.MiBps
	case label == "Throughput MB/s", label == "MB/s total":
		dst, mbToMiB = &c.MiBps, true
	case label == "Total MiB":
		dst = &c.TotalMiB
	case label == "CPU util %":
		dst = &c.CPUPct
	case strings.HasSuffix(label, "/s") && !strings.Contains(label, " "),
		strings.HasSuffix(label, "/s total"):
		if label == "Dirs/s" && p.EntryType != "" && p.EntryType != "Dirs" {
			return nil // dir stats printed besides the files of a dir-mode phase
		}
		p.EntryType = strings.TrimSuffix(strings.TrimSuffix(label, " total"), "/s")
		dst = &c.EntriesPerSec
	case strings.HasSuffix(label, " total") && !strings.HasPrefix(label, "IOs"):
		if label == "Dirs total" && p.EntryType != "" && p.EntryType != "Dirs" {
			return nil
		}
		dst = &c.Entries
	default:
		return nil // kept in Rows only
	}
	x, err := conv(v)
	if err != nil {
		return err
	}
	if mbToMiB {
		x = x * 1e6 / (1 << 20)
	}
	*dst = x
	return nil
}

// listRow reads a "[ ... ]" row: latency, percentiles, histogram; other
// lists (Time ms each, Svc compl. time) stay in Rows.
func (p *Phase) listRow(label string, items []string) error {
	var kind, typ string
	for _, suffix := range []string{" latency", " lat us", " lat % us", " lat hist"} {
		if t, ok := strings.CutSuffix(label, suffix); ok {
			kind, typ = suffix, t
			break
		}
	}
	if kind == "" {
		return nil
	}
	lat := p.latency(typ)
	var err error
	switch kind {
	case " latency":
		err = parseMinAvgMax(items, true, &lat.Us)
	case " lat us":
		err = parseMinAvgMax(items, false, &lat.Us)
	case " lat % us":
		err = parsePercentiles(items, lat)
	case " lat hist":
		err = parseHistogram(items, lat)
	}
	if err != nil {
		return fmt.Errorf("%s: %v", label, err)
	}
	return nil
}

// latency returns the phase's latency entry of type typ, adding it.
func (p *Phase) latency(typ string) *Latency {
	for i := range p.Latency {
		if p.Latency[i].Type == typ {
			return &p.Latency[i]
		}
	}
	p.Latency = append(p.Latency, Latency{Type: typ})
	return &p.Latency[len(p.Latency)-1]
}

// normalise fills the normalised fields from the LAST DONE column.
func (p *Phase) normalise() {
	p.IOPS, p.MiBps, p.ElapsedMs, p.EntriesPerSec = p.Last.IOPS, p.Last.MiBps, p.Last.ElapsedMs, p.Last.EntriesPerSec
	p.LatUs = latencyOf(p.Latency)
}

// latencyOf picks IO latency, else the first latency type reported.
func latencyOf(ls []Latency) (out bench.Latency) {
	for _, l := range ls {
		if l.Type == "IO" {
			return l.Us
		}
	}
	if len(ls) > 0 {
		return ls[0].Us
	}
	return out
}
