package gpfs

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Daemon states printed by mmgetstate.
const (
	StateActive      = "active"
	StateDown        = "down"
	StateArbitrating = "arbitrating"
	StateUnknown     = "unknown"
)

// NodeStates is the output of mmgetstate (-a, -L, -v, -N, -Y).
type NodeStates struct {
	Nodes []NodeState `json:"nodes"`
	// Unreachable lists nodes named by "mmgetstate: The following nodes
	// could not be reached:" (their names follow on the same or next lines).
	Unreachable []string `json:"unreachable,omitempty"`
	// Messages keeps other "mmgetstate: ..." lines.
	Messages []string `json:"messages,omitempty"`
}

// NodeState is one node row. Quorum, NodesUp and TotalNodes are present only
// in the long form (-L, -Y) and are nil when the column is empty.
type NodeState struct {
	Number     int    `json:"number"`
	Name       string `json:"name"`
	State      string `json:"state"`
	Quorum     *int   `json:"quorum,omitempty"`
	NodesUp    *int   `json:"nodes_up,omitempty"`
	TotalNodes *int   `json:"total_nodes,omitempty"`
	Remarks    string `json:"remarks,omitempty"`
	// QuorumNode is true when Remarks says "quorum node".
	QuorumNode bool `json:"quorum_node"`
}

// Node returns the row for name (exact, or short name against long name).
func (s *NodeStates) Node(name string) (NodeState, bool) {
	for _, n := range s.Nodes {
		if sameNode(n.Name, name) {
			return n, true
		}
	}
	return NodeState{}, false
}

// ParseMmgetstate reads the human-readable table of mmgetstate: a header
// starting "Node number  Node name", a dashed rule, then rows
// "<number> <name> [<quorum> <up> <total>] <state> [<remarks>]".
func ParseMmgetstate(data []byte) (*NodeStates, error) {
	const tool = "mmgetstate"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	s := &NodeStates{Nodes: []NodeState{}}
	long, inTable, inUnreach, header := false, false, false, false
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "Node number"):
			if header {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "a second table header (two outputs run together?)"}
			}
			header = true
			long = strings.Contains(line, "Quorum")
			inTable, inUnreach = true, false
			continue
		case strings.Trim(line, "-") == "":
			continue
		case strings.HasPrefix(line, "mmgetstate:"):
			msg := strings.TrimSpace(strings.TrimPrefix(line, "mmgetstate:"))
			if rest, ok := cutAfter(msg, "could not be reached:"); ok {
				s.Unreachable = append(s.Unreachable, strings.Fields(rest)...)
				inUnreach = true
				continue
			}
			s.Messages = append(s.Messages, msg)
			inUnreach = false
			continue
		}
		f := strings.Fields(line)
		n, err := strconv.Atoi(f[0])
		if err != nil || !inTable || len(f) < 3 {
			if inUnreach && len(f) == 1 {
				s.Unreachable = append(s.Unreachable, f[0])
				continue
			}
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected '<node number> <node name> ... <state>'"}
		}
		ns := NodeState{Number: n, Name: f[1]}
		rest := f[2:]
		if long {
			ints := []**int{&ns.Quorum, &ns.NodesUp, &ns.TotalNodes}
			for k := 0; k < len(ints) && len(rest) > 1; k++ {
				v, err := strconv.Atoi(rest[0])
				if err != nil {
					break
				}
				*ints[k] = &v
				rest = rest[1:]
			}
		}
		if _, err := strconv.Atoi(rest[0]); err == nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a GPFS state, got a number"}
		}
		ns.State = rest[0]
		ns.Remarks = strings.Join(rest[1:], " ")
		ns.QuorumNode = strings.Contains(ns.Remarks, "quorum node")
		s.Nodes = append(s.Nodes, ns)
	}
	if !header && len(s.Messages) == 0 && len(s.Unreachable) == 0 {
		return nil, &parse.Error{Tool: tool, Reason: "no 'Node number' table and no mmgetstate message (nothing printed?)"}
	}
	return s, nil
}

// ParseMmgetstateY reads "mmgetstate -Y": rows with nodeName, nodeNumber,
// state, quorum, nodesUp, totalNodes and remarks fields.
func ParseMmgetstateY(data []byte) (*NodeStates, error) {
	const tool = "mmgetstate -Y"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	recs, err := readY(tool, "mmgetstate", data)
	if err != nil {
		return nil, err
	}
	s := &NodeStates{Nodes: []NodeState{}}
	for _, r := range recs {
		n, err := strconv.Atoi(r.Fields["nodeNumber"])
		if err != nil || r.Fields["nodeName"] == "" || r.Fields["state"] == "" {
			return nil, &parse.Error{Tool: tool, Line: r.Line, Text: r.Text, Reason: "missing nodeName, nodeNumber or state"}
		}
		ns := NodeState{Number: n, Name: r.Fields["nodeName"], State: r.Fields["state"], Remarks: r.Fields["remarks"]}
		ns.Quorum = optInt(r.Fields["quorum"])
		ns.NodesUp = optInt(r.Fields["nodesUp"])
		ns.TotalNodes = optInt(r.Fields["totalNodes"])
		ns.QuorumNode = strings.Contains(ns.Remarks, "quorum node")
		s.Nodes = append(s.Nodes, ns)
	}
	return s, nil
}

func optInt(s string) *int {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return nil
	}
	return &v
}

// cutAfter returns the text after sep in s.
func cutAfter(s, sep string) (string, bool) {
	k := strings.Index(s, sep)
	if k < 0 {
		return "", false
	}
	return strings.TrimSpace(s[k+len(sep):]), true
}
