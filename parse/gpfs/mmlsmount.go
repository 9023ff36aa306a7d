package gpfs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Mounts is the output of mmlsmount all -L: where each file system is
// mounted.
type Mounts struct {
	FileSystems []FSMounts `json:"file_systems"`
	// Empty is true when mmlsmount said it found no file systems
	// ("mmlsmount: No file systems were found."), as against output with
	// no "File system" line at all, an error.
	Empty bool `json:"empty,omitempty"`
}

// FSMounts is one file system and the nodes that have it mounted.
type FSMounts struct {
	Name string `json:"name"`
	// Count is the number the header line states ("is mounted on 7
	// nodes"); 0 for "is not mounted".
	Count int         `json:"count"`
	Nodes []MountedOn `json:"nodes"`
}

// MountedOn is one node line: its address, name and, for nodes of another
// cluster, that cluster's name.
type MountedOn struct {
	Address string `json:"address"`
	Node    string `json:"node"`
	Cluster string `json:"cluster,omitempty"`
}

// MountedOn reports whether file system fs is mounted on node (short or
// long name).
func (m *Mounts) MountedOn(fs, node string) bool {
	for _, f := range m.FileSystems {
		if f.Name != fs {
			continue
		}
		for _, n := range f.Nodes {
			if sameNode(n.Node, node) {
				return true
			}
		}
	}
	return false
}

// On lists the file systems mounted on node.
func (m *Mounts) On(node string) []string {
	var out []string
	for _, f := range m.FileSystems {
		if m.MountedOn(f.Name, node) {
			out = append(out, f.Name)
		}
	}
	return out
}

// ParseMmlsmount reads "mmlsmount all -L" (samples gpfs/mmlsmount-all-L-*):
// per file system a line "File system NAME is mounted on N nodes:" followed
// by indented lines "ADDRESS  NODE [CLUSTER]", or "File system NAME is not
// mounted." (documented by IBM; no public sample: an assumption). A header
// whose node count differs from the lines that follow is an error: the
// output was cut.
func ParseMmlsmount(data []byte) (*Mounts, error) {
	const tool = "mmlsmount"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	out := &Mounts{FileSystems: []FSMounts{}}
	check := func() *parse.Error {
		if k := len(out.FileSystems); k > 0 {
			f := out.FileSystems[k-1]
			if f.Count != len(f.Nodes) {
				return &parse.Error{Tool: tool, Reason: "file system " + f.Name + ": the header says " + strconv.Itoa(f.Count) + " nodes, " + strconv.Itoa(len(f.Nodes)) + " are listed"}
			}
		}
		return nil
	}
	seen := map[string]int{}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "mmlsmount:") && strings.Contains(line, "No file systems were found") {
			out.Empty = true
			continue
		}
		if line == "" || strings.HasPrefix(line, "mmlsmount:") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "File system "); ok {
			if err := check(); err != nil {
				return nil, err
			}
			name, tail, ok := strings.Cut(rest, " ")
			if !ok {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'File system NAME is mounted on N nodes:'"}
			}
			if first, dup := seen[name]; dup {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
					Reason: fmt.Sprintf("file system %s again (first on line %d): two outputs run together?", name, first)}
			}
			seen[name] = i + 1
			fs := FSMounts{Name: name, Nodes: []MountedOn{}}
			switch {
			case strings.HasPrefix(tail, "is not mounted"):
			case strings.HasPrefix(tail, "is mounted on "):
				w := strings.Fields(strings.TrimPrefix(tail, "is mounted on "))
				n, err := strconv.Atoi(w[0])
				if err != nil || len(w) < 2 || !strings.HasPrefix(w[1], "node") || n < 0 {
					return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a node count: 'is mounted on N nodes:'"}
				}
				fs.Count = n
			default:
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'is mounted on N nodes:' or 'is not mounted'"}
			}
			out.FileSystems = append(out.FileSystems, fs)
			continue
		}
		f := strings.Fields(line)
		k := len(out.FileSystems)
		if k == 0 || len(f) < 2 || len(f) > 3 {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'ADDRESS  NODE [CLUSTER]' under a 'File system' line"}
		}
		m := MountedOn{Address: f[0], Node: f[1]}
		if len(f) == 3 {
			m.Cluster = f[2]
		}
		out.FileSystems[k-1].Nodes = append(out.FileSystems[k-1].Nodes, m)
	}
	if err := check(); err != nil {
		return nil, err
	}
	if len(out.FileSystems) == 0 && !out.Empty {
		return nil, &parse.Error{Tool: tool, Reason: `no "File system" line and no "No file systems were found" message (nothing printed?)`}
	}
	return out, nil
}
