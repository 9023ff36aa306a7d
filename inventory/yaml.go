package inventory

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
	"gopkg.in/yaml.v3"

	"github.com/provadev/prova/internal/lazyre"
)

// maxYAMLNodes bounds the values built from one YAML file, so that aliases
// cannot blow up memory.
const maxYAMLNodes = 1 << 18

var yamlErrLine = lazyre.New(`line (\d+)`)

// yamlParser fills a builder from an Ansible YAML inventory.
type yamlParser struct {
	b        *builder
	filename string
	dir      string
	src      []byte
	lines    []int // byte offset of each line start
	budget   int
	// json is set when the whole file is JSON, which Ansible's loader
	// reads with json.loads before it tries YAML.
	json bool
}

func parseYAML(filename string, src []byte) (*Inventory, hcl.Diagnostics) {
	b := newBuilder()
	if !parseYAMLInto(b, filename, src) {
		return nil, b.diags
	}
	return b.build()
}

// newYAMLParser returns a parser of src filling b.
func newYAMLParser(b *builder, filename string, src []byte) *yamlParser {
	p := &yamlParser{b: b, filename: filename, dir: filepath.Dir(filename), src: src, budget: maxYAMLNodes, json: json.Valid(src)}
	p.lines = append(p.lines, 0)
	for i, c := range src {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

// parseYAMLInto fills b from an Ansible YAML inventory; false when the
// file is not YAML at all (b.diags says why).
func parseYAMLInto(b *builder, filename string, src []byte) bool {
	b.ansible = true
	p := newYAMLParser(b, filename, src)
	var doc yaml.Node
	if err := unmarshalYAML(src, &doc); err != nil {
		line := 1
		if m := yamlErrLine.FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		p.b.errorf(p.lineRange(line), "Invalid YAML", "%s.", err)
		return false
	}
	if len(doc.Content) == 0 {
		return true
	}
	root := doc.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return true
	}
	if root.Kind != yaml.MappingNode {
		p.b.errorf(p.nodeRange(root), "Invalid inventory", "The top level must be a mapping of group names, such as \"all:\".")
		return false
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		p.group(root.Content[i], root.Content[i+1], "", 0)
	}
	return true
}

// unmarshalYAML turns a panic inside the YAML library into an error.
func unmarshalYAML(src []byte, doc *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return yaml.Unmarshal(src, doc)
}

func (p *yamlParser) group(key, n *yaml.Node, parent string, depth int) {
	n = deref(n)
	name := key.Value
	if key.Kind != yaml.ScalarNode {
		p.b.errorf(p.nodeRange(key), "Invalid group name", "A group name must be a string.")
		return
	}
	if err := checkGroupName(name); err != nil {
		p.b.errorf(p.nodeRange(key), "Invalid group name", "%s.", err)
		return
	}
	if depth > 100 {
		p.b.errorf(p.nodeRange(key), "Groups nested too deeply", "Group %q is nested more than 100 levels deep.", name)
		return
	}
	g := p.b.group(name, p.nodeRange(key))
	if !g.block {
		g.rng = p.nodeRange(key)
	}
	g.known, g.block = true, true
	if parent != "" {
		p.b.child(parent, name, p.nodeRange(key))
	}
	if n == nil || isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		p.b.errorf(p.nodeRange(n), "Invalid group", "Group %q must be a mapping with hosts, children and vars.", name)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if v == nil || isNull(v) {
			continue
		}
		switch k.Value {
		case "hosts":
			p.hosts(name, v)
		case "children":
			if v.Kind != yaml.MappingNode {
				p.b.errorf(p.nodeRange(v), "Invalid children", "The children of group %q must be a mapping of group names.", name)
				continue
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				p.group(v.Content[j], v.Content[j+1], name, depth+1)
			}
		case "vars":
			vars, ranges := p.vars(v)
			p.b.ansibleConn(p.dir, vars, ranges, &g.conn, nil)
			setVars(&g.vars, vars)
		default:
			p.b.errorf(p.nodeRange(k), "Unsupported key", "Group %q has key %q; expected hosts, children or vars.", name, k.Value)
		}
	}
}

func (p *yamlParser) hosts(group string, n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		p.b.errorf(p.nodeRange(n), "Invalid hosts", "The hosts of group %q must be a mapping of host names.", group)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		rng := p.nodeRange(k)
		if k.Kind != yaml.ScalarNode {
			p.b.errorf(rng, "Invalid host name", "A host name must be a string.")
			continue
		}
		if tag := k.ShortTag(); tag == "!!int" || tag == "!!float" {
			// as Ansible's yaml plugin: a number is not a host pattern
			p.b.errorf(rng, "Invalid host name", "Host pattern %s must be a string: enclose integers and floats in quotes (%q).", k.Value, k.Value)
			continue
		}
		hostPart, port, err := splitHostPort(k.Value)
		if err != nil {
			p.b.errorf(rng, "Invalid host", "%s.", err)
			continue
		}
		names, err := ExpandRange(hostPart)
		if err != nil {
			p.b.errorf(rng, "Invalid host range", "%s.", err)
			continue
		}
		if !p.b.room(len(names), rng) {
			continue
		}
		ok := true
		for _, name := range names {
			if err := checkHostName(name); err != nil {
				p.b.errorf(rng, "Invalid host name", "%s.", err)
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		var vars map[string]cty.Value
		var ranges map[string]hcl.Range
		if v != nil && !isNull(v) {
			if v.Kind != yaml.MappingNode {
				p.b.errorf(p.nodeRange(v), "Invalid host", "Host %q must map to its variables or to nothing.", k.Value)
				continue
			}
			vars, ranges = p.vars(v)
		}
		var c connDef
		if port != 0 {
			c.c.Port, c.set = port, fPort
		}
		var addr string
		p.b.ansibleConn(p.dir, vars, ranges, &c, &addr)
		for _, name := range names {
			h := p.b.host(name, rng)
			h.conn.over(c)
			if addr != "" {
				h.address = addr
			}
			setVars(&h.vars, vars)
			p.b.member(h, group, rng)
		}
	}
}

// vars converts a mapping of variables.
func (p *yamlParser) vars(n *yaml.Node) (map[string]cty.Value, map[string]hcl.Range) {
	vars := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	if n.Kind != yaml.MappingNode {
		p.b.errorf(p.nodeRange(n), "Invalid vars", "Variables must be a mapping of names to values.")
		return vars, ranges
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			p.b.errorf(p.nodeRange(k), "Invalid variable name", "A variable name must be a string.")
			continue
		}
		v, err := p.value(n.Content[i+1], 0)
		if err != nil {
			p.b.errorf(p.nodeRange(n.Content[i+1]), "Invalid value", "Variable %q: %s.", k.Value, err)
			continue
		}
		vars[k.Value] = v
		ranges[k.Value] = p.nodeRange(n.Content[i+1])
	}
	return vars, ranges
}

// nodeRange is the range of a node's first line from its column: the token
// for a scalar.
func (p *yamlParser) nodeRange(n *yaml.Node) hcl.Range {
	if n == nil || n.Line < 1 || n.Line > len(p.lines) {
		return p.lineRange(1)
	}
	start, end := p.lineBounds(n.Line)
	b := start
	for col := 1; col < n.Column && b < end; col++ {
		_, size := decodeRune(p.src[b:end])
		b += size
	}
	e := end
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && b+len(n.Value) <= end {
		e = b + len(n.Value)
	}
	return p.span(n.Line, start, b, e)
}

func (p *yamlParser) lineRange(line int) hcl.Range {
	if line < 1 || line > len(p.lines) {
		line = len(p.lines)
	}
	start, end := p.lineBounds(line)
	return p.span(line, start, start, end)
}

func (p *yamlParser) lineBounds(line int) (int, int) {
	start := p.lines[line-1]
	end := len(p.src)
	if line < len(p.lines) {
		end = p.lines[line] - 1
	}
	if end > start && p.src[end-1] == '\r' {
		end--
	}
	return start, end
}

func (p *yamlParser) span(line, lineStart, from, to int) hcl.Range {
	return hcl.Range{
		Filename: p.filename,
		Start:    hcl.Pos{Line: line, Column: from - lineStart + 1, Byte: from},
		End:      hcl.Pos{Line: line, Column: to - lineStart + 1, Byte: to},
	}
}
