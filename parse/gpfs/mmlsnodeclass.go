package gpfs

import (
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// NodeClasses is the output of mmlsnodeclass: node classes and their
// members.
type NodeClasses struct {
	Classes []NodeClass `json:"classes"`
	// Messages keeps "mmlsnodeclass: ..." lines.
	Messages []string `json:"messages,omitempty"`
}

// NodeClass is one node class.
type NodeClass struct {
	Name string `json:"name"`
	// Type is what -Y output says of the class ("user" or "system",
	// lowercased); "" in the human-readable form, which does not say.
	Type string `json:"type,omitempty"`
	// Members are as printed: node names and, for a class made of other
	// classes (IBM's example: siteAandB with members siteA,siteB), class
	// names. Nodes expands them.
	Members []string `json:"members"`
}

// Class returns the class named name (GPFS class names are
// case-sensitive).
func (n *NodeClasses) Class(name string) (NodeClass, bool) {
	for _, c := range n.Classes {
		if c.Name == name {
			return c, true
		}
	}
	return NodeClass{}, false
}

// Nodes returns the node members of class name, in order and without
// repeats: members that name another class of n are replaced by that
// class's nodes (IBM allows one level of nesting; deeper and cyclic
// references are followed once).
func (n *NodeClasses) Nodes(name string) []string {
	var out []string
	seen := map[string]bool{}
	visiting := map[string]bool{}
	var walk func(string)
	walk = func(class string) {
		c, ok := n.Class(class)
		if !ok || visiting[class] {
			return
		}
		visiting[class] = true
		for _, m := range c.Members {
			if _, isClass := n.Class(m); isClass {
				walk(m)
				continue
			}
			if !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
	}
	walk(name)
	return out
}

// ParseMmlsnodeclass reads the human-readable output of mmlsnodeclass
// (the default user classes, --system, --all or named classes; sample
// gpfs/mmlsnodeclass-*): a "Node Class Name  Members" header, a dashed
// rule, then one row per class: its name and its members,
// comma-separated; a class without members is its name alone. A line that
// starts with white space after a row is read as more members of that row
// (how a long member list continues is an assumption: no public sample
// shows one). "mmlsnodeclass: ..." lines are kept as messages.
func ParseMmlsnodeclass(data []byte) (*NodeClasses, error) {
	const tool = "mmlsnodeclass"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	out := &NodeClasses{Classes: []NodeClass{}}
	header := false
	index := map[string]bool{}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "mmlsnodeclass:"):
			out.Messages = append(out.Messages, line)
			continue
		case strings.HasPrefix(line, "Node Class Name") && strings.Contains(line, "Members"):
			if header {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "a second header (two outputs run together?)"}
			}
			header = true
			continue
		case strings.Trim(line, "- ") == "":
			if !header {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "rule before the 'Node Class Name  Members' header"}
			}
			continue
		}
		if !header {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "row before the 'Node Class Name  Members' header"}
		}
		if raw[0] == ' ' || raw[0] == '\t' {
			if len(out.Classes) == 0 {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "indented line before the first class row"}
			}
			c := &out.Classes[len(out.Classes)-1]
			c.Members = append(c.Members, splitMembers(line)...)
			continue
		}
		name, rest, _ := strings.Cut(line, " ")
		if index[name] {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "class " + name + " a second time (two outputs run together?)"}
		}
		index[name] = true
		out.Classes = append(out.Classes, NodeClass{Name: name, Members: splitMembers(rest)})
	}
	if !header {
		return nil, &parse.Error{Tool: tool, Reason: "no 'Node Class Name  Members' header (nothing printed, or not mmlsnodeclass output)"}
	}
	return out, nil
}

// splitMembers splits a comma-separated member list; spaces around the
// commas are allowed.
func splitMembers(s string) []string {
	out := []string{}
	for _, m := range strings.Split(strings.Join(strings.Fields(s), ""), ",") {
		if m != "" {
			out = append(out, m)
		}
	}
	return out
}

// ParseMmlsnodeclassY reads mmlsnodeclass -Y. No public sample of it was
// found: the columns are found by name, case-insensitively, among the
// names IBM's REST API and public scripts use for the same data: the class
// name in nodeclassName, the members in allMembers (members of nested
// classes included), else memberNodes plus memberClasses, else members;
// the type (USER or SYSTEM) in type. Values are percent-decoded.
func ParseMmlsnodeclassY(data []byte) (*NodeClasses, error) {
	const tool = "mmlsnodeclass -Y"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	recs, err := readY(tool, "mmlsnodeclass", data)
	if err != nil {
		return nil, err
	}
	out := &NodeClasses{Classes: []NodeClass{}}
	index := map[string]bool{}
	for _, r := range recs {
		get := func(names ...string) (string, bool) {
			for _, want := range names {
				for k, v := range r.Fields {
					if strings.EqualFold(k, want) {
						return v, true
					}
				}
			}
			return "", false
		}
		name, ok := get("nodeclassName", "nodeClass", "className")
		if !ok || name == "" {
			return nil, &parse.Error{Tool: tool, Line: r.Line, Text: r.Text, Reason: "no node class name (HEADER has no nodeclassName column)"}
		}
		if index[name] {
			return nil, &parse.Error{Tool: tool, Line: r.Line, Text: r.Text, Reason: "class " + name + " a second time (two outputs run together?)"}
		}
		index[name] = true
		c := NodeClass{Name: name, Members: []string{}}
		if v, ok := get("type", "nodeclassType", "classType"); ok {
			c.Type = strings.ToLower(v)
		}
		if v, ok := get("allMembers"); ok {
			c.Members = splitMembers(v)
		} else {
			nodes, okN := get("memberNodes")
			classes, okC := get("memberClasses")
			if okN || okC {
				c.Members = append(splitMembers(nodes), splitMembers(classes)...)
			} else if v, ok := get("members"); ok {
				c.Members = splitMembers(v)
			} else {
				return nil, &parse.Error{Tool: tool, Line: r.Line, Text: r.Text, Reason: "no member column (allMembers, memberNodes, memberClasses or members)"}
			}
		}
		out.Classes = append(out.Classes, c)
	}
	return out, nil
}
