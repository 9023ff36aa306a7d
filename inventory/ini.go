package inventory

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/internal/lazyre"
)

var iniSection = lazyre.New(`^\[([^:\]\s]+)(?::([A-Za-z0-9_]+))?\]\s*(?:[#;].*)?$`)

// iniParser fills a builder from an Ansible INI inventory.
type iniParser struct {
	b        *builder
	filename string
	dir      string
	// the current line
	line      string
	lineNo    int
	lineStart int
	// vars sections seen for groups that had no section of their own yet
	pendingVars map[string]hcl.Range
}

func parseINI(filename string, src []byte) (*Inventory, hcl.Diagnostics) {
	b := newBuilder()
	parseINIInto(b, filename, src)
	return b.build()
}

// parseINIInto fills b from an Ansible INI inventory.
func parseINIInto(b *builder, filename string, src []byte) {
	b.ansible = true
	p := &iniParser{b: b, filename: filename, dir: filepath.Dir(filename), pendingVars: map[string]hcl.Range{}}
	group, state := "ungrouped", "hosts"
	offset := 0
	for lineNo := 1; offset <= len(src); lineNo++ {
		end := bytes.IndexByte(src[offset:], '\n')
		next := offset + end + 1
		if end < 0 {
			end = len(src) - offset
			next = len(src) + 1
		}
		p.line = strings.TrimSuffix(string(src[offset:offset+end]), "\r")
		p.lineNo, p.lineStart = lineNo, offset
		offset = next

		text := strings.TrimSpace(p.line)
		if text == "" || text[0] == '#' || text[0] == ';' {
			continue
		}
		if text[0] == '[' {
			group, state = p.section(text)
			continue
		}
		switch state {
		case "hosts":
			p.hostLine(group)
		case "vars":
			p.varLine(group)
		case "children":
			p.childLine(group)
		}
	}
	for _, name := range sortedKeys(p.pendingVars) {
		if g := p.b.groups[name]; g != nil && !g.block {
			g.known = true // reported here, not again as undefined
			p.b.errorf(p.pendingVars[name], "Undefined group", "Section [%s:vars] is for group %q, which has no [%s] or [%s:children] section.", name, name, name, name)
		}
	}
}

// rng returns the range of bytes [from, to) of the current line.
func (p *iniParser) rng(from, to int) hcl.Range {
	return hcl.Range{
		Filename: p.filename,
		Start:    hcl.Pos{Line: p.lineNo, Column: from + 1, Byte: p.lineStart + from},
		End:      hcl.Pos{Line: p.lineNo, Column: to + 1, Byte: p.lineStart + to},
	}
}

// lineRange is the range of the current line without surrounding blanks.
func (p *iniParser) lineRange() hcl.Range {
	trimmed := strings.TrimLeft(p.line, " \t")
	from := len(p.line) - len(trimmed)
	return p.rng(from, from+len(strings.TrimRight(trimmed, " \t")))
}

// section reads a section header and returns the group and state it opens.
// On error, the following lines are skipped.
func (p *iniParser) section(text string) (string, string) {
	m := iniSection.FindStringSubmatch(text)
	if m == nil {
		p.b.errorf(p.lineRange(), "Invalid section header", "Expected [group], [group:vars] or [group:children], got %q.", text)
		return "", "skip"
	}
	name, kind := m[1], m[2]
	if err := checkGroupName(name); err != nil {
		p.b.errorf(p.lineRange(), "Invalid group name", "%s.", err)
		return "", "skip"
	}
	g := p.b.group(name, p.lineRange())
	switch kind {
	case "":
		kind = "hosts"
	case "vars":
		if !g.known {
			if _, seen := p.pendingVars[name]; !seen {
				p.pendingVars[name] = p.lineRange()
			}
		}
		return name, kind
	case "children":
	default:
		p.b.errorf(p.lineRange(), "Invalid section header", "Section suffix %q is not \"vars\" or \"children\".", kind)
		return "", "skip"
	}
	if !g.block {
		g.rng = p.lineRange()
	}
	g.known, g.block = true, true
	return name, kind
}

// hostLine reads a host line as Ansible's ini plugin does: split like a
// shell line by shlex (quotes removed, a # outside quotes ends the line),
// then a host pattern and key=value words whose values are read by
// ansibleValue.
func (p *iniParser) hostLine(group string) {
	toks, err := shlexWords(p.line, true)
	if err != nil {
		p.b.errorf(p.lineRange(), "Invalid host line", "The line cannot be split into words as Ansible splits it: %s.", err)
		return
	}
	if len(toks) == 0 {
		return
	}
	first := toks[0]
	hostRange := p.rng(first.start, first.end)
	hostPart, port, err := splitHostPort(first.text)
	if err != nil {
		p.b.errorf(hostRange, "Invalid host", "%s.", err)
		return
	}
	vars := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	for _, t := range toks[1:] {
		k, v, ok := strings.Cut(t.text, "=")
		if !ok || k == "" {
			p.b.errorf(p.rng(t.start, t.end), "Invalid host variable", "Expected key=value after the host name, got %q.", t.text)
			return
		}
		vars[k] = ansibleValue(v)
		ranges[k] = p.rng(t.start, t.end)
	}
	names, err := ExpandRange(hostPart)
	if err != nil {
		p.b.errorf(hostRange, "Invalid host range", "%s.", err)
		return
	}
	if !p.b.room(len(names), hostRange) {
		return
	}
	for _, n := range names {
		if err := checkHostName(n); err != nil {
			p.b.errorf(hostRange, "Invalid host name", "%s.", err)
			return
		}
	}
	var c connDef
	if port != 0 {
		c.c.Port, c.set = port, fPort
	}
	var addr string
	p.b.ansibleConn(p.dir, vars, ranges, &c, &addr)
	for _, n := range names {
		h := p.b.host(n, hostRange)
		h.conn.over(c)
		if addr != "" {
			h.address = addr
		}
		setVars(&h.vars, vars)
		p.b.member(h, group, p.lineRange())
	}
}

// varLine reads a line of a [group:vars] section as Ansible does: split
// at the first "=", both sides trimmed, the value read by ansibleValue as
// it stands (so "5 # note" is 5, as Python reads the comment, but "  #
// zone" is the string "# zone").
func (p *iniParser) varLine(group string) {
	text := strings.TrimSpace(p.line)
	k, v, ok := strings.Cut(text, "=")
	k, v = strings.TrimSpace(k), strings.TrimSpace(v)
	if !ok || k == "" {
		p.b.errorf(p.lineRange(), "Invalid group variable", "Expected key=value in [%s:vars], got %q.", group, text)
		return
	}
	g := p.b.groups[group]
	vars := map[string]cty.Value{k: ansibleValue(v)}
	p.b.ansibleConn(p.dir, vars, map[string]hcl.Range{k: p.lineRange()}, &g.conn, nil)
	setVars(&g.vars, vars)
}

// iniChild is a line of a [group:children] section (Ansible's groupname
// pattern: a name, then an optional # comment).
var iniChild = lazyre.New(`^([^:\]\s]+)\s*(?:#.*)?$`)

func (p *iniParser) childLine(group string) {
	text := strings.TrimSpace(p.line)
	m := iniChild.FindStringSubmatch(text)
	if m == nil {
		p.b.errorf(p.lineRange(), "Invalid group name", "Expected a group name in [%s:children], got %q.", group, text)
		return
	}
	if err := checkGroupName(m[1]); err != nil {
		p.b.errorf(p.lineRange(), "Invalid group name", "%s.", err)
		return
	}
	p.b.child(group, m[1], p.lineRange())
}

// splitHostPort splits "host:port"; the colon must be outside range
// brackets, and a name with several colons (IPv6) has no port.
func splitHostPort(s string) (string, int, error) {
	depth, colon, count := 0, -1, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case ':':
			if depth == 0 {
				colon = i
				count++
			}
		}
	}
	if count != 1 {
		return s, 0, nil
	}
	portText := s[colon+1:]
	port, ok := 0, false
	if isDigits(portText) && len(portText) <= 5 {
		v, _ := cty.ParseNumberVal(portText)
		port, ok = portOf(v.AsBigFloat())
	}
	if !ok {
		return "", 0, fmt.Errorf("port %q in %q is not a number from 1 to 65535", portText, s)
	}
	return s[:colon], port, nil
}
