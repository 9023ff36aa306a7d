package gpfs

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// NetworkDiag is the output of mmdiag --network. The TCP connection table
// and the communication configuration are typed; the RDMA section (whose
// layout varies by release) is kept as rows of column -> value; other
// sections are kept as raw lines.
type NetworkDiag struct {
	Pending []string          `json:"pending"`
	Config  map[string]string `json:"config"`
	TCP     []TCPConn         `json:"tcp"`
	// RDMA holds the rows of "RDMA Connections between nodes:", keyed by
	// the lowercased header names; "device" holds the fabric/device line
	// the row belongs to.
	RDMA []map[string]string `json:"rdma,omitempty"`
	// RDMATable is true when the output has that section at all (it may
	// list no connection).
	RDMATable bool `json:"rdma_table,omitempty"`
	// Sections keeps the indented lines of every other section by title.
	Sections map[string][]string `json:"sections,omitempty"`
}

// TCPConn is one row of "TCP Connections between nodes:".
type TCPConn struct {
	Hostname    string `json:"hostname"`
	Node        string `json:"node,omitempty"` // e.g. "<c0n1>"
	Idx         *int   `json:"idx,omitempty"`
	Destination string `json:"destination"`
	Status      string `json:"status"`
	Err         *int   `json:"err,omitempty"`
	Device      string `json:"device,omitempty"` // from a "Device eth0:" line (older releases)
	OSType      string `json:"ostype,omitempty"`
}

var configKV = lazyre.New(`^(\S.*?)\s{2,}(\S.*)$`)

// ParseMmdiagNetwork reads mmdiag --network.
func ParseMmdiagNetwork(data []byte) (*NetworkDiag, error) {
	const tool = "mmdiag --network"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	d := &NetworkDiag{Pending: []string{}, Config: map[string]string{}, TCP: []TCPConn{}}
	section, device := "", ""
	var cols []string
	seen := map[string]bool{}
	banner := false
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "===") && strings.HasSuffix(line, "===") {
			if banner {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "a second '=== mmdiag: network ===' banner (two outputs run together?)"}
			}
			banner = true
			continue
		}
		indented := raw[0] == ' ' || raw[0] == '\t'
		if !indented {
			if !strings.HasSuffix(line, ":") {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a section title ending in ':'"}
			}
			section, device, cols = strings.TrimSuffix(line, ":"), "", nil
			if seen[section] {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "section " + strconv.Quote(section) + " a second time (two outputs run together?)"}
			}
			seen[section] = true
			if section == "RDMA Connections between nodes" {
				d.RDMATable = true
			}
			continue
		}
		switch section {
		case "Pending messages":
			if line != "(none)" {
				d.Pending = append(d.Pending, line)
			}
		case "Inter-node communication configuration":
			m := configKV.FindStringSubmatch(line)
			if m == nil {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'key  value'"}
			}
			d.Config[m[1]] = m[2]
		case "TCP Connections between nodes", "RDMA Connections between nodes":
			f := strings.Fields(line)
			switch {
			case strings.HasPrefix(line, "Device ") || strings.HasPrefix(line, "Fabric "):
				device = strings.TrimSuffix(line, ":")
			case strings.EqualFold(f[0], "hostname"):
				cols = make([]string, len(f))
				for k, h := range f {
					cols[k] = strings.ToLower(h)
				}
			case cols == nil || len(f) < 2:
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "connection row before the column header"}
			default:
				row := map[string]string{}
				for k := 0; k < len(cols) && k < len(f); k++ {
					row[cols[k]] = f[k]
				}
				if section[0] == 'R' {
					if device != "" {
						row["device"] = device
					}
					d.RDMA = append(d.RDMA, row)
					continue
				}
				c := TCPConn{Hostname: row["hostname"], Node: row["node"], Destination: row["destination"],
					Status: row["status"], Err: optInt(row["err"]), Idx: optInt(row["idx"]), OSType: row["ostype"]}
				c.Device = strings.TrimPrefix(device, "Device ")
				if c.Destination == "" || c.Status == "" {
					return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "row without destination or status"}
				}
				d.TCP = append(d.TCP, c)
			}
		default:
			if d.Sections == nil {
				d.Sections = map[string][]string{}
			}
			d.Sections[section] = append(d.Sections[section], line)
		}
	}
	if len(seen) == 0 {
		return nil, &parse.Error{Tool: tool, Reason: "no section (nothing printed?)"}
	}
	return d, nil
}

// ConnectedTCP returns the TCP rows to destination ip whose status is
// "connected".
func (d *NetworkDiag) ConnectedTCP(ip string) []TCPConn {
	var out []TCPConn
	for _, c := range d.TCP {
		if c.Destination == ip && strings.EqualFold(c.Status, "connected") {
			out = append(out, c)
		}
	}
	return out
}
