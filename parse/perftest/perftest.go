package perftest

import (
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

var (
	dashLine = lazyre.New(`^-+$`)
	title    = lazyre.New(`^(\S+)(?:\s+\S+)*?\s+(BW|Latency)\s+Test$`)
)

// toolNames maps the first word of a title to the verb in the binary name.
var toolNames = map[string]string{"RDMA_Write": "write", "RDMA_Read": "read", "Send": "send", "Atomic": "atomic"}

// noDeviceLine reports whether line is one of perftest's "no HCA" messages.
func noDeviceLine(line string) bool {
	return strings.HasPrefix(line, "Did not detect devices") ||
		strings.HasPrefix(line, "If device exists, check if driver is up") ||
		strings.HasPrefix(line, "Unable to find the Infiniband/RoCE device") ||
		strings.HasPrefix(line, "No IB devices found") ||
		(strings.HasPrefix(line, "IB device") && strings.HasSuffix(line, "not found"))
}

// failureLine reports whether line is a perftest failure message.
func failureLine(line string) bool {
	for _, p := range []string{"Couldn't", "Couldnt", "Unable to", "Failed", "failed", "Completion with error",
		"Error", "ERROR", "Problem", "scnt=", "Client/Server"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// warningLine reports whether line is a warning perftest may print between
// the rows of a result table.
func warningLine(line string) bool {
	return strings.HasPrefix(line, "Conflicting CPU frequency") || strings.HasPrefix(line, "Warning") ||
		strings.HasPrefix(line, "WARNING")
}

// Parse reads the output of any latency or bandwidth perftest binary.
func Parse(data []byte) (*Result, error) {
	if err := parse.Complete("perftest", data); err != nil {
		return nil, err
	}
	p := parser{res: &Result{}}
	lines := text.Lines(data)
	for i, raw := range lines {
		if err := p.line(i+1, raw); err != nil {
			return nil, err
		}
	}
	r := p.res
	if r.Test == "" && r.Version == "" && !r.NoDevice && len(r.Columns) == 0 && len(r.Errors) == 0 {
		return nil, &parse.Error{Tool: "perftest", Reason: "no test title, result table, version or device message: not perftest output (nothing printed?)"}
	}
	if r.Side == "" && (r.Test != "" || len(r.Columns) > 0) {
		r.Side = "client"
	}
	r.Message = strings.Join(p.msgs, "\n")
	return r, nil
}

type parser struct {
	res        *Result
	msgs       []string
	inHeader   bool // after the title, before the addresses
	inTable    bool
	tbl        table
	lastRemote bool // the last address line was a remote one
	started    bool // a line of perftest's own has been read
}

func (p *parser) fail(n int, raw, reason string) error {
	tool := p.res.Tool
	if tool == "" {
		tool = "perftest"
	}
	return &parse.Error{Tool: tool, Line: n, Text: raw, Reason: reason}
}

func (p *parser) line(n int, raw string) error {
	line := strings.TrimSpace(raw)
	if line == "" {
		return nil
	}
	if !p.started {
		if !ownLine(line) {
			return p.fail(n, raw, "text before perftest's output (a login banner, a shell prompt or another tool's output?)")
		}
		p.started = true
	}
	return p.read(n, raw, line)
}

// ownLine reports whether line can start perftest's output: its dashed
// rule, the server's "*" box, a test title, a result table header,
// "Version:", a no-device, failure or warning message, or one of the
// notices perftest prints before its header (noticeLine). Anything else
// before such a line is not perftest's, and is refused rather than kept
// as a warning: a parser does not guess where another tool's text ends.
func ownLine(line string) bool {
	return dashLine.MatchString(line) || strings.HasPrefix(line, "*") || title.MatchString(line) ||
		isTableHeader(line) || strings.HasPrefix(line, "Version:") || noDeviceLine(line) ||
		failureLine(line) || warningLine(line) || noticeLine(line) ||
		strings.HasPrefix(line, "local address:") || strings.HasPrefix(line, "remote address:")
}

// notices are the beginnings of the lines perftest itself prints before
// its header: parameter adjustments and, with --use_cuda, the CUDA
// initialisation (samples perftest/*use_cuda*; perftest's
// perftest_parameters.c and cuda_memory.c print them to stdout).
var notices = []string{
	"Perftest doesn't", "Requested mtu is higher than active mtu", "Changing to active mtu",
	"initializing CUDA", "Listing all CUDA devices", "CUDA device ", "Picking device No.",
	"[pid = ", "creating CUDA Ctx", "making it the current CUDA Ctx", "cuMemAlloc()",
	"allocated GPU buffer", "Finding PCIe", "Using DMA-BUF", "using DMA-BUF",
}

// noticeLine reports whether line is one of perftest's own notices.
func noticeLine(line string) bool {
	for _, p := range notices {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

func (p *parser) read(n int, raw, line string) error {
	r := p.res
	switch {
	case dashLine.MatchString(line):
		p.inTable = false
		return nil
	case isTableHeader(line):
		return p.tableHeader(n, raw, line)
	case p.inTable:
		switch {
		case line[0] >= '0' && line[0] <= '9':
			if reason := p.tbl.parseRow(line, r); reason != "" {
				return p.fail(n, raw, reason)
			}
		case warningLine(line):
			r.Warnings = append(r.Warnings, line)
		case failureLine(line):
			r.Errors = append(r.Errors, line)
		default:
			return p.fail(n, raw, "unexpected line in the result table")
		}
		return nil
	case line[0] >= '0' && line[0] <= '9':
		return p.fail(n, raw, "result row without a table header")
	case strings.HasPrefix(line, "*"):
		if strings.Contains(line, "Waiting for client to connect") {
			r.Side = "server"
		}
		return nil
	case noDeviceLine(line):
		r.NoDevice = true
		p.msgs = append(p.msgs, line)
		return nil
	case title.MatchString(line) && r.Test != "":
		return p.fail(n, raw, "a second test title (two outputs run together?)")
	case title.MatchString(line) && r.Test == "":
		m := title.FindStringSubmatch(line)
		r.Test, p.inHeader = line, true
		r.Kind = map[string]string{"BW": "bandwidth", "Latency": "latency"}[m[2]]
		if verb, ok := toolNames[m[1]]; ok {
			r.Tool = "ib_" + verb + "_" + map[string]string{"BW": "bw", "Latency": "lat"}[m[2]]
		}
		return nil
	case strings.HasPrefix(line, "local address:") || strings.HasPrefix(line, "remote address:"):
		remote := strings.HasPrefix(line, "remote")
		_, rest, _ := strings.Cut(line, ":")
		a, ok := parseAddress(rest)
		if !ok {
			return p.fail(n, raw, "expected 'KEY value' pairs after the address label")
		}
		if remote {
			r.Remote = append(r.Remote, a)
		} else {
			r.Local = append(r.Local, a)
		}
		p.inHeader, p.lastRemote = false, remote
		return nil
	case strings.HasPrefix(line, "GID:"):
		gid := strings.TrimSpace(strings.TrimPrefix(line, "GID:"))
		if p.lastRemote && len(r.Remote) > 0 {
			r.Remote[len(r.Remote)-1].GID = gid
		} else if !p.lastRemote && len(r.Local) > 0 {
			r.Local[len(r.Local)-1].GID = gid
		}
		return nil
	case strings.HasPrefix(line, "Version:") && r.Test == "":
		r.Version = strings.TrimSpace(strings.TrimPrefix(line, "Version:"))
		return nil
	case failureLine(line):
		r.Errors = append(r.Errors, line)
		return nil
	case p.inHeader && strings.Contains(line, ":"):
		pairs := splitPairs(line)
		if pairs == nil {
			r.Warnings = append(r.Warnings, line)
			return nil
		}
		for _, kv := range pairs {
			if reason := setHeader(&r.Header, kv[0], kv[1]); reason != "" {
				return p.fail(n, raw, reason)
			}
		}
		return nil
	}
	r.Warnings = append(r.Warnings, line)
	return nil
}

func (p *parser) tableHeader(n int, raw, line string) error {
	r := p.res
	t, reason := parseTableHeader(line)
	if reason != "" {
		return p.fail(n, raw, reason)
	}
	if r.Kind != "" && r.Kind != t.kind() {
		return p.fail(n, raw, r.Kind+" test printed a "+t.kind()+" table")
	}
	if len(r.Columns) > 0 && p.tbl.unit != t.unit {
		return p.fail(n, raw, "second result table with other units")
	}
	r.Kind, r.Columns = t.kind(), t.names
	p.tbl, p.inTable, p.inHeader = t, true, false
	return nil
}

// ParseLatency reads latency test output (ib_write_lat, ib_read_lat,
// ib_send_lat); bandwidth output is a *parse.Error.
func ParseLatency(data []byte) (*Result, error) { return parseKind(data, "latency") }

// ParseBandwidth reads bandwidth test output (ib_write_bw, ib_read_bw,
// ib_send_bw); latency output is a *parse.Error.
func ParseBandwidth(data []byte) (*Result, error) { return parseKind(data, "bandwidth") }

func parseKind(data []byte, kind string) (*Result, error) {
	r, err := Parse(data)
	if err != nil {
		return nil, err
	}
	if r.Kind != "" && r.Kind != kind {
		tool := r.Tool
		if tool == "" {
			tool = "perftest"
		}
		return nil, &parse.Error{Tool: tool, Reason: "this is " + r.Kind + " test output, expected " + kind}
	}
	return r, nil
}

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "perftest-lat", Command: "ib_write_lat / ib_read_lat / ib_send_lat",
			Parse: func(b []byte) (any, error) { return ParseLatency(b) }},
		{Name: "perftest-bw", Command: "ib_write_bw / ib_read_bw / ib_send_bw",
			Parse: func(b []byte) (any, error) { return ParseBandwidth(b) }},
	}
}
