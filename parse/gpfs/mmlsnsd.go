package gpfs

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// NSDs is the output of mmlsnsd: which nodes serve which NSD.
type NSDs struct {
	Disks []NSD `json:"disks"`
	// Empty is true when mmlsnsd said "No disks were found." (a cluster
	// without NSDs), as against output with no table at all, an error.
	Empty bool `json:"empty,omitempty"`
}

// NSD is one network shared disk.
type NSD struct {
	Name string `json:"name"`
	// FileSystem is the file system the disk belongs to ("" for a free
	// disk, or when the form printed has no file system column: -m, -M).
	FileSystem string `json:"file_system,omitempty"`
	VolumeID   string `json:"volume_id,omitempty"`
	// Servers is the NSD server list in order (primary first); empty when
	// the disk is directly attached to every node.
	Servers []string `json:"servers"`
}

// Disk returns the NSD named name.
func (n *NSDs) Disk(name string) (NSD, bool) {
	for _, d := range n.Disks {
		if d.Name == name {
			return d, true
		}
	}
	return NSD{}, false
}

// ServedBy returns the NSDs node serves (short or long name).
func (n *NSDs) ServedBy(node string) []NSD {
	var out []NSD
	for _, d := range n.Disks {
		for _, s := range d.Servers {
			if sameNode(s, node) {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// ParseMmlsnsd reads the tables of mmlsnsd. Two forms are known from real
// output (samples gpfs/mmlsnsd-*):
//
//   - the default, -a and -L: " File system   Disk name   [NSD volume ID]
//     NSD servers", a dashed rule, then one row per disk with the server
//     list comma-separated ("(free disk)" as file system of a free disk);
//   - -m and -M: " Disk name   NSD volume ID   Device   Node name
//     Remarks", one row per disk and node; nodes whose remarks say
//     "server node" are its servers, in row order.
//
// Columns are found by the header's names; a cell longer than its column
// pushes the next ones right (real output does), so rows are read by
// words. "mmlsnsd: ..." message lines are skipped; "No disks were found."
// gives an empty result marked Empty. Output with no table and no such
// message, a second header, or a disk (or disk and node) listed twice
// is an error: the text is not one mmlsnsd output.
func ParseMmlsnsd(data []byte) (*NSDs, error) {
	const tool = "mmlsnsd"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	out := &NSDs{Disks: []NSD{}}
	form := ""
	index := map[string]int{}
	hasVol := false
	header := 0
	seen := map[string]int{}
	twice := func(i int, raw, what string, first int) error {
		return &parse.Error{Tool: tool, Line: i + 1, Text: raw,
			Reason: fmt.Sprintf("%s again (first on line %d): two outputs run together?", what, first)}
	}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		isHeader := false
		switch {
		case line == "" || strings.Trim(line, "-") == "":
			continue
		case strings.Contains(line, "No disks were found"):
			out.Empty = true
			continue
		case strings.HasPrefix(line, "mmlsnsd:"):
			continue
		case strings.HasPrefix(line, "File system") && strings.Contains(line, "Disk name") && strings.Contains(line, "NSD servers"):
			form, hasVol, isHeader = "servers", strings.Contains(line, "NSD volume ID"), true
		case strings.HasPrefix(line, "Disk name") && strings.Contains(line, "Node name"):
			form, isHeader = "nodes", true
		}
		if isHeader {
			if header > 0 {
				return nil, twice(i, raw, "the column header", header)
			}
			header = i + 1
			continue
		}
		f := strings.Fields(line)
		switch form {
		case "servers":
			fs := f[0]
			rest := f[1:]
			if fs == "(free" && len(f) > 1 && f[1] == "disk)" {
				fs, rest = "", f[2:]
			}
			want := 1
			if hasVol {
				want = 2
			}
			if len(rest) < want {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'file system  disk name  [volume ID]  NSD servers'"}
			}
			d := NSD{Name: rest[0], FileSystem: fs, Servers: []string{}}
			rest = rest[1:]
			if hasVol {
				d.VolumeID, rest = rest[0], rest[1:]
			}
			list := strings.Join(rest, " ")
			if !strings.HasPrefix(strings.ToLower(list), "(directly attached") {
				for _, s := range strings.Split(strings.ReplaceAll(list, " ", ""), ",") {
					if s != "" {
						d.Servers = append(d.Servers, s)
					}
				}
			}
			if first, dup := seen[d.Name]; dup {
				return nil, twice(i, raw, "disk "+d.Name, first)
			}
			seen[d.Name] = i + 1
			out.Disks = append(out.Disks, d)
		case "nodes":
			if len(f) < 4 {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'disk name  volume ID  device  node name  [remarks]'"}
			}
			name, vol, node := f[0], f[1], f[3]
			if first, dup := seen[name+" "+node]; dup {
				return nil, twice(i, raw, "disk "+name+" on "+node, first)
			}
			seen[name+" "+node] = i + 1
			server := strings.Contains(strings.Join(f[4:], " "), "server node")
			k, ok := index[name]
			if !ok {
				k = len(out.Disks)
				index[name] = k
				out.Disks = append(out.Disks, NSD{Name: name, VolumeID: vol, Servers: []string{}})
			}
			if server {
				out.Disks[k].Servers = append(out.Disks[k].Servers, node)
			}
		default:
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "row before a column header ('File system  Disk name ... NSD servers' or 'Disk name ... Node name')"}
		}
	}
	if header == 0 && !out.Empty {
		return nil, &parse.Error{Tool: tool, Reason: `no NSD table and no "No disks were found" message (nothing printed?)`}
	}
	if out.Empty && len(out.Disks) > 0 {
		return nil, &parse.Error{Tool: tool, Reason: `"No disks were found" and a table of disks: two outputs run together?`}
	}
	return out, nil
}
