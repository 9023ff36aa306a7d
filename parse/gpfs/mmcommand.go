package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// CommandResult is what an administration command (mmchconfig, mmshutdown,
// mmstartup, mmaddnode, ...) reported. These commands print free text, so
// every line is kept somewhere; nothing is an error for the parser.
//
// "Command successfully completed" alone is not success: mmaddnode prints it
// even when some nodes could not be added. OK combines the evidence.
type CommandResult struct {
	// Command is the "mmX" prefix of the messages, e.g. "mmchconfig".
	Command string `json:"command"`
	// Completed is true when the command printed its completion message:
	// "Command successfully completed", "Finished" (mmshutdown) or
	// "Starting GPFS ..." (mmstartup).
	Completed bool `json:"completed"`
	// Failed is true when the command said "Command failed".
	Failed bool `json:"failed"`
	// Propagating is true when the command announced that it propagates the
	// configuration to all affected nodes (asynchronously).
	Propagating bool     `json:"propagating"`
	Errors      []string `json:"errors,omitempty"`
	Warnings    []string `json:"warnings,omitempty"`
	// Unreachable lists nodes named in "<node> cannot be reached." or
	// "The following nodes could not be reached:".
	Unreachable []string `json:"unreachable,omitempty"`
	// FailedNodes lists the nodes under "The following nodes could not be
	// added ..." (or similar lists of nodes a command gave up on).
	FailedNodes []string `json:"failed_nodes,omitempty"`
	// Busy keeps unmount complaints such as "umount: /gpfs/fs1: device is
	// busy": the command may still finish (and exit 0) with them.
	Busy []string `json:"busy,omitempty"`
	// NodeLines are the per-node lines "<node>:  <text>".
	NodeLines []NodeLine `json:"node_lines,omitempty"`
	// Messages keeps the other lines (progress messages, notes).
	Messages []string `json:"messages,omitempty"`
}

// NodeLine is one "<node>:  <text>" line printed on behalf of a node.
type NodeLine struct {
	Node string `json:"node"`
	Text string `json:"text"`
}

// OK reports whether the command completed, did not fail, and named no
// error, unreachable or failed node. Busy unmounts do not count against it.
func (r *CommandResult) OK() bool {
	return r.Completed && !r.Failed && len(r.Errors) == 0 && len(r.Unreachable) == 0 && len(r.FailedNodes) == 0
}

var (
	cmdPrefix  = lazyre.New(`^(mm[a-z]+): (.*)$`)
	nodePrefix = lazyre.New(`^([A-Za-z0-9][A-Za-z0-9._-]*):\s{2}(.*)$`)
	dateOnly   = lazyre.New(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [A-Z+\-0-9]+)? \d{4}: `)
	failWords  = lazyre.New(`(?i)\b(error|failed|failure|cannot|could not|unable|incorrect|invalid|denied|not found|no such)\b`)
)

// ParseCommandResult reads the output (stdout and stderr together) of an
// mm* administration command.
func ParseCommandResult(data []byte) *CommandResult {
	r := &CommandResult{}
	var last *[]string    // where an indented continuation line goes
	var listing *[]string // the node list after "The following nodes could not be ...:"
	for _, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		indented := raw[0] == ' ' || raw[0] == '\t'
		if listing != nil && indented && !strings.Contains(line, " ") {
			*listing = append(*listing, line)
			continue
		}
		listing = nil
		if indented && last != nil && len(*last) > 0 {
			(*last)[len(*last)-1] += " " + line
			continue
		}
		line = dateOnly.ReplaceAllString(line, "")
		if m := cmdPrefix.FindStringSubmatch(line); m != nil {
			if r.Command == "" {
				r.Command = m[1]
			}
			last = r.commandMessage(strings.TrimSpace(m[2]), &listing)
			continue
		}
		if m := nodePrefix.FindStringSubmatch(line); m != nil {
			r.NodeLines = append(r.NodeLines, NodeLine{Node: m[1], Text: strings.TrimSpace(m[2])})
			if failWords.MatchString(m[2]) {
				r.Errors = append(r.Errors, line)
				last = &r.Errors
			} else {
				last = nil
			}
			continue
		}
		if strings.Contains(strings.ToLower(line), "busy") {
			r.Busy = append(r.Busy, line)
			last = &r.Busy
			continue
		}
		r.Messages = append(r.Messages, line)
		last = &r.Messages
	}
	return r
}

// commandMessage files one "mmX: msg" message and returns the list that
// continuation lines extend.
func (r *CommandResult) commandMessage(msg string, listing **[]string) *[]string {
	switch {
	case isCompletion(msg):
		r.Completed = true
		return nil
	case strings.HasPrefix(msg, "Command failed"):
		r.Failed = true
		r.Errors = append(r.Errors, msg)
		return &r.Errors
	case strings.HasPrefix(msg, "Propagating the cluster configuration"):
		r.Propagating = true
		return &[]string{msg} // swallow "  affected nodes.  This is an asynchronous process."
	case strings.HasPrefix(msg, "Warning:") || strings.HasPrefix(msg, "Attention:"):
		r.Warnings = append(r.Warnings, msg)
		return &r.Warnings
	case strings.HasSuffix(msg, "cannot be reached."):
		r.Unreachable = append(r.Unreachable, strings.TrimSuffix(msg, " cannot be reached."))
		return nil
	case strings.HasPrefix(msg, "The following nodes could not be"):
		rest, _ := cutAfter(msg, ":")
		nodes := splitNodeList(strings.ReplaceAll(rest, " ", ","))
		if strings.Contains(msg, "reached") {
			r.Unreachable = append(r.Unreachable, nodes...)
			*listing = &r.Unreachable
			return nil
		}
		r.FailedNodes = append(r.FailedNodes, nodes...)
		r.Errors = append(r.Errors, msg)
		*listing = &r.FailedNodes
		return &r.Errors
	case failWords.MatchString(msg):
		r.Errors = append(r.Errors, msg)
		return &r.Errors
	}
	r.Messages = append(r.Messages, msg)
	return &r.Messages
}

// ParseCommand returns a strict reader of one administration command's
// output, for `prova parse` and the support bundle: where
// ParseCommandResult files every line somewhere (a module then judges
// OK()), this one refuses what is not one run of command: output cut
// mid-line, nothing printed, text with no "command: ..." message at all
// (another tool, an error page), a login banner or shell prompt, and a
// completion message printed twice (two runs run together).
func ParseCommand(command string) func([]byte) (*CommandResult, error) {
	return func(data []byte) (*CommandResult, error) {
		if err := parse.Complete(command, data); err != nil {
			return nil, err
		}
		lines := text.Lines(data)
		own, completedAt := false, 0
		for i, raw := range lines {
			if text.Terminal(raw) {
				return nil, &parse.Error{Tool: command, Line: i + 1, Text: raw,
					Reason: "a login banner or shell prompt, not " + command + " output: paste the command's output only"}
			}
			line := dateOnly.ReplaceAllString(strings.TrimSpace(raw), "")
			m := cmdPrefix.FindStringSubmatch(line)
			if m == nil || m[1] != command {
				continue
			}
			own = true
			if isCompletion(m[2]) {
				if completedAt > 0 {
					return nil, &parse.Error{Tool: command, Line: i + 1, Text: raw,
						Reason: fmt.Sprintf("a second completion message (the first is on line %d): two outputs run together?", completedAt)}
				}
				completedAt = i + 1
			}
		}
		if !own {
			if len(lines) == 0 || text.Blank(data) {
				return nil, &parse.Error{Tool: command, Reason: "no output (" + command + " always prints its messages)"}
			}
			return nil, &parse.Error{Tool: command, Line: 1, Text: lines[0],
				Reason: "no line is a \"" + command + ": ...\" message: not " + command + " output"}
		}
		return ParseCommandResult(data), nil
	}
}

// isCompletion reports whether msg (after "mmX: ") is the command's
// completion message.
func isCompletion(msg string) bool {
	msg = strings.TrimSpace(msg)
	return strings.HasPrefix(msg, "Command successfully completed") || msg == "Finished" || strings.HasPrefix(msg, "Starting GPFS")
}
