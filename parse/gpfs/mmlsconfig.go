package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Config is the output of mmlsconfig: the configuration values stored in the
// cluster, each with the node list or node class it is set for.
type Config struct {
	ClusterName string `json:"cluster_name,omitempty"`
	// Entries in the order printed. An attribute may appear several times,
	// once per node list.
	Entries []ConfigEntry `json:"entries"`
	// FileSystems lists the devices under "File systems in cluster ...".
	FileSystems []string `json:"file_systems,omitempty"`
}

// ConfigEntry is one attribute value. Nodes is empty for a cluster-wide
// value (no section, or the [common] section); otherwise it holds the names
// inside the section brackets, e.g. ["gpfs01","gpfs02"] or ["nsdNodes"].
type ConfigEntry struct {
	Attr  string   `json:"attr"`
	Value string   `json:"value"`
	Nodes []string `json:"nodes,omitempty"`
	Line  int      `json:"line"`
}

// ParseMmlsconfig reads the human-readable output of mmlsconfig (all
// attributes, with "[nodes]" / "[common]" sections) or of
// "mmlsconfig attr..." (lines "attr value [nodes]").
func ParseMmlsconfig(data []byte) (*Config, error) {
	const tool = "mmlsconfig"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	c := &Config{Entries: []ConfigEntry{}}
	var section []string
	inFS := false
	header := 0
	seen := map[string]int{} // attribute and node list -> line
	lines := text.Lines(data)
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if text.Terminal(raw) {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
				Reason: "a login banner or shell prompt, not mmlsconfig output: paste the command's output only"}
		}
		switch {
		case line == "":
			continue
		case strings.HasPrefix(line, "Configuration data for cluster "):
			if header > 0 {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
					Reason: fmt.Sprintf("a second header (the first is on line %d): two outputs run together?", header)}
			}
			header = i + 1
			c.ClusterName = strings.TrimSuffix(strings.TrimPrefix(line, "Configuration data for cluster "), ":")
			inFS = false
			continue
		case strings.HasPrefix(line, "File systems in cluster "):
			inFS = true
			continue
		case strings.Trim(line, "-") == "":
			continue
		case inFS:
			if strings.ContainsAny(line, " \t") {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a file system device"}
			}
			c.FileSystems = append(c.FileSystems, line)
			continue
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]"):
			section = splitNodeList(line[1 : len(line)-1])
			if len(section) == 0 {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "empty node list"}
			}
			if len(section) == 1 && section[0] == "common" {
				section = nil
			}
			continue
		}
		attr, value, _ := strings.Cut(line, " ")
		if !attrName(attr) {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'attribute value'"}
		}
		value = strings.TrimSpace(value)
		nodes := section
		// "mmlsconfig attr" qualifies a value with its node list: "pagepool 16G [nsdNodes]".
		if section == nil && strings.HasSuffix(value, "]") {
			if k := strings.LastIndex(value, " ["); k >= 0 {
				nodes = splitNodeList(value[k+2 : len(value)-1])
				value = strings.TrimSpace(value[:k])
			}
		}
		key := attr + " " + strings.Join(nodes, ",")
		if first, dup := seen[key]; dup {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
				Reason: fmt.Sprintf("%s again for the same nodes (first on line %d): two outputs run together?", attr, first)}
		}
		seen[key] = i + 1
		c.Entries = append(c.Entries, ConfigEntry{Attr: attr, Value: value, Nodes: nodes, Line: i + 1})
	}
	if len(c.Entries) == 0 && header == 0 {
		return nil, &parse.Error{Tool: tool, Reason: "no configuration header and no attribute (nothing printed?)"}
	}
	return c, nil
}

// ParseMmlsconfigY reads "mmlsconfig -Y": rows
// "mmlsconfig::0:1:::<configParameter>:<value>:<nodeList>:".
func ParseMmlsconfigY(data []byte) (*Config, error) {
	const tool = "mmlsconfig -Y"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	recs, err := readY(tool, "mmlsconfig", data)
	if err != nil {
		return nil, err
	}
	c := &Config{Entries: []ConfigEntry{}}
	for _, r := range recs {
		attr := r.Fields["configParameter"]
		if !validAttr(attr) {
			return nil, &parse.Error{Tool: tool, Line: r.Line, Text: r.Text, Reason: "missing configParameter"}
		}
		nodes := splitNodeList(r.Fields["nodeList"])
		if len(nodes) == 1 && nodes[0] == "common" {
			nodes = nil
		}
		e := ConfigEntry{Attr: attr, Value: r.Fields["value"], Nodes: nodes, Line: r.Line}
		if attr == "clusterName" && len(nodes) == 0 {
			c.ClusterName = e.Value
		}
		c.Entries = append(c.Entries, e)
	}
	return c, nil
}

// Effective returns the value of attr that applies to node, given the node
// classes the node belongs to (mmlsnodeclass; may be nil). A section naming
// the node itself wins over a section naming one of its classes, which wins
// over the cluster-wide value; within one level the entry printed last wins.
// Attribute and node names compare case-insensitively, and a node matches
// its short name too ("gpfs01" matches "gpfs01.example.com").
func (c *Config) Effective(attr, node string, classes []string) (string, bool) {
	best, bestLevel := "", 0
	for _, e := range c.Entries {
		if !strings.EqualFold(e.Attr, attr) {
			continue
		}
		level := 0
		if len(e.Nodes) == 0 {
			level = 1
		}
		for _, n := range e.Nodes {
			if sameNode(n, node) {
				level = 3
				break
			}
			for _, cl := range classes {
				if strings.EqualFold(n, cl) && level < 2 {
					level = 2
				}
			}
		}
		if level > 0 && level >= bestLevel {
			best, bestLevel = e.Value, level
		}
	}
	return best, bestLevel > 0
}

// Values returns every entry for attr, in printed order.
func (c *Config) Values(attr string) []ConfigEntry {
	var out []ConfigEntry
	for _, e := range c.Entries {
		if strings.EqualFold(e.Attr, attr) {
			out = append(out, e)
		}
	}
	return out
}

func sameNode(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if strings.EqualFold(a, b) {
		return true
	}
	sa, _, _ := strings.Cut(a, ".")
	sb, _, _ := strings.Cut(b, ".")
	// Only a short name matches a long one; two different domains never match.
	return strings.EqualFold(sa, sb) && (sa == a) != (sb == b)
}

func splitNodeList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// validAttr reports whether s looks like a GPFS attribute name.
func validAttr(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case (r >= '0' && r <= '9') || r == '_' || r == '.' || r == '-':
			if i == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// attrName reports whether s is spelled as GPFS spells its attribute
// names: camelCase from a lower-case letter (pagepool, verbsRdma,
// maxMBpS) or from an upper-case acronym (FIPS1402mode). A capitalised
// word ("Welcome", "Please") is prose, not an attribute.
func attrName(s string) bool {
	if !validAttr(s) {
		return false
	}
	if s[0] >= 'A' && s[0] <= 'Z' {
		return len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z'
	}
	return true
}
