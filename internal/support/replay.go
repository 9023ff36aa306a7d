package support

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Outcome of replaying one probe.
const (
	ReplayOK       = "ok"        // parsed now
	ReplayFails    = "fails"     // the parser gives an error now
	ReplayNotRun   = "not_run"   // the command failed on the host (exit status, not installed)
	ReplayRaw      = "raw"       // no parser for this output
	ReplayChanged  = "changed"   // parses, but not to what the bundle recorded
	ReplayNoParser = "no_parser" // the bundle names a parser this prova does not have
)

// Replayed is one probe's replay.
type Replayed struct {
	Host, Probe, Parser, Command string
	Outcome                      string
	// Detail is the parse error, the exit status, or what changed.
	Detail string
	// WasError is the parse error recorded at collect time, if any.
	WasError string
}

// Replay runs today's parsers on every output of the bundle.
func Replay(b *Bundle, reg *parse.Registry) []Replayed {
	var out []Replayed
	for _, h := range b.Hosts {
		if why, down := b.Manifest.Unreachable[h.Name]; down {
			out = append(out, Replayed{Host: h.Name, Outcome: ReplayNotRun, Detail: "unreachable at collect time: " + why})
			continue
		}
		for _, r := range h.Results {
			x := Replayed{Host: h.Name, Probe: r.Probe, Parser: r.Parser, Command: r.Command, WasError: r.ParseError}
			switch {
			case r.Error != "":
				x.Outcome, x.Detail = ReplayNotRun, r.Error
			case r.RC != 0:
				x.Outcome, x.Detail = ReplayNotRun, fmt.Sprintf("exited %d: %s", r.RC, lastLine(r.Stderr+r.Stdout))
			case r.Parser == "":
				x.Outcome = ReplayRaw
			default:
				p, ok := reg.Lookup(r.Parser)
				if !ok {
					x.Outcome, x.Detail = ReplayNoParser, "this prova has no parser "+r.Parser
					break
				}
				again := r
				parseInto(&again, reg, func(s string) string { return s })
				switch {
				case again.ParseError != "":
					x.Outcome, x.Detail = ReplayFails, again.ParseError
				case r.Parsed != nil && !sameJSON(r.Parsed, again.Parsed):
					x.Outcome, x.Detail = ReplayChanged, "parses, but not to what "+p.Name+" read at collect time"
				default:
					x.Outcome = ReplayOK
				}
			}
			out = append(out, x)
		}
	}
	return out
}

// Failed reports whether any replay fails or changed.
func Failed(rs []Replayed) bool {
	for _, r := range rs {
		if r.Outcome == ReplayFails || r.Outcome == ReplayNoParser {
			return true
		}
	}
	return false
}

// sameJSON compares two JSON texts ignoring layout (results.json is
// indented).
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// lastLine is what a replay quotes of a failed command's output.
func lastLine(s string) string {
	if l := module.LastLine(s); l != "" {
		return text.Clip(l)
	}
	return "(no output)"
}
