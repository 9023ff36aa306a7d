package gpfs

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
)

// VerbsConns is the output of "mmfsadm test verbs conn": the RDMA
// connections of this node, one entry per destination (a peer with several
// connections, e.g. one per port, has several entries). The format is
// assumed, not known from a public sample: see docs/gpfs-verbs-conn.md.
type VerbsConns struct {
	Conns []VerbsConn `json:"conns"`
	// Columns are the header names as printed (lowercased), or the assumed
	// default order when the output has no header.
	Columns []string `json:"columns"`
	// Notes keeps lines starting "VERBS RDMA" (e.g. "VERBS RDMA status:
	// disabled" printed instead of a table when RDMA is not started).
	Notes []string `json:"notes,omitempty"`
	// Empty is true when the command printed nothing at all (not even a
	// title): prova cannot tell "no connections" from such output.
	Empty bool `json:"empty,omitempty"`
	// Titled is true when a title line ("RDMA Connections between
	// nodes:") was printed.
	Titled bool `json:"titled,omitempty"`
	// Truncated is true when the output ends in the middle of a line; the
	// cut line is not read.
	Truncated bool `json:"truncated,omitempty"`
	// NoTable (mmdiag --verbs -Y only) is true when the output has no
	// section prova reads as a connection table; Columns then lists the
	// sections it had.
	NoTable bool `json:"no_table,omitempty"`
}

// VerbsConn is one connection. Name, Device, Port and QPs are empty/nil when
// the output does not give them.
type VerbsConn struct {
	Dest   string `json:"dest"`
	Name   string `json:"name,omitempty"`
	State  string `json:"state"`
	Device string `json:"device,omitempty"`
	Port   *int   `json:"port,omitempty"`
	QPs    *int   `json:"qps,omitempty"`
	// Connected is true for the states that mean an established RDMA
	// connection: connected, established, rts, rdma_connected, up
	// (case-insensitive).
	Connected bool `json:"connected"`
	Line      int  `json:"line"`
}

// defaultConnColumns is the column order assumed when there is no header.
var defaultConnColumns = []string{"destination", "hostname", "state", "device", "port", "qps"}

// column aliases, lowercased header name -> field.
var connAliases = map[string]string{
	"destination": "dest", "dest": "dest", "ip": "dest", "address": "dest", "ipaddr": "dest",
	"destip": "dest", "peeraddr": "dest", "remote": "dest", "remoteaddr": "dest",
	"hostname": "name", "node": "name", "nodename": "name", "name": "name", "host": "name", "peername": "name", "daemonname": "name",
	"state": "state", "status": "state", "connstate": "state", "qpstate": "state",
	"device": "device", "dev": "device", "hca": "device",
	"port": "port",
	"qps":  "qps", "qp": "qps", "nqp": "qps", "qpcount": "qps",
}

var connectedStates = map[string]bool{"connected": true, "established": true, "rts": true, "rdma_connected": true, "up": true}

var knownConnStates = map[string]bool{
	"connected": true, "established": true, "rts": true, "rdma_connected": true, "up": true,
	"connecting": true, "disconnected": true, "disconnecting": true, "closed": true, "error": true,
	"down": true, "idle": true, "init": true, "failed": true, "timeout": true,
}

// For returns the entries whose destination equals ip (when ip is not
// empty) or whose name matches name (when name is not empty; a short name
// matches a long one).
func (c *VerbsConns) For(ip, name string) []VerbsConn {
	var want netip.Addr
	if ip != "" {
		want, _ = netip.ParseAddr(ip)
	}
	var out []VerbsConn
	for _, e := range c.Conns {
		hit := false
		if ip != "" {
			got, err := netip.ParseAddr(e.Dest)
			hit = e.Dest == ip || (err == nil && want.IsValid() && got == want)
		}
		if !hit && name != "" && e.Name != "" {
			hit = sameNode(e.Name, name)
		}
		if hit {
			out = append(out, e)
		}
	}
	return out
}

// Connected reports whether at least one entry for the peer (see For) is in
// a connected state.
func (c *VerbsConns) Connected(ip, name string) bool {
	for _, e := range c.For(ip, name) {
		if e.Connected {
			return true
		}
	}
	return false
}

// ParseVerbsConn reads "mmfsadm test verbs conn" (or "conns") tolerantly,
// as docs/gpfs-verbs-conn.md describes: optional title lines ending in ':',
// a header line read by its column names (aliases, any order, unknown
// columns ignored), then one row per connection. Without a header, rows
// start with the destination IP address in the assumed default order.
//
// It never guesses: a line it cannot read is an error naming the line, and
// output that ends in the middle of a line is marked Truncated. Empty is
// set when the command printed nothing at all, which is not the same as
// the documented empty table (title and header, no rows).
func ParseVerbsConn(data []byte) (*VerbsConns, error) { return parseVerbsConn(string(data)) }

// ParseVerbsConnText is ParseVerbsConn reading a string without copying it:
// the strings of the result are substrings of s (at 1,000 nodes a
// 1,000-row table, read by 50 hosts at once).
func ParseVerbsConnText(s string) (*VerbsConns, error) { return parseVerbsConn(s) }

func parseVerbsConn(data string) (*VerbsConns, error) {
	const tool = "mmfsadm test verbs conn"
	c := &VerbsConns{Conns: []VerbsConn{}, Empty: strings.TrimSpace(data) == "", Truncated: data != "" && !strings.HasSuffix(data, "\n")}
	var cols []string
	var idx map[string]int
	lines := splitLines(data)
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasSuffix(line, ":") || strings.Trim(line, "-= ") == "" {
			if line != "" {
				c.Titled = true
			}
			continue
		}
		if strings.HasPrefix(line, "VERBS RDMA") {
			c.Notes = append(c.Notes, line)
			continue
		}
		f := strings.Fields(line)
		if _, err := netip.ParseAddr(f[0]); err != nil && cols == nil {
			if isConnHeader(f) {
				cols = make([]string, len(f))
				for k, h := range f {
					cols[k] = strings.ToLower(h)
				}
				c.Columns = cols
				idx = connIndex(cols)
				continue
			}
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a header naming the destination or node and the state, or a row starting with the destination IP address"}
		}
		if cols == nil {
			cols = defaultConnColumns
			c.Columns = cols
			idx = connIndex(cols)
		}
		e, err := connRowAt(idx, f)
		if err != "" {
			if c.Truncated && i == len(lines)-1 {
				break // the cut last row
			}
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: err}
		}
		if c.Truncated && i == len(lines)-1 {
			break // a cut row may look whole ("connected" cut to "connect"): never trust it
		}
		e.Line = i + 1
		c.Conns = append(c.Conns, e)
	}
	return c, nil
}

// isConnHeader reports whether f names, through the aliases, a state column
// and a destination or node column.
func isConnHeader(f []string) bool {
	has := map[string]bool{}
	for _, h := range f {
		has[connAliases[strings.ToLower(h)]] = true
	}
	return has["state"] && (has["dest"] || has["name"])
}

func connRow(cols, f []string) (VerbsConn, string) { return connRowAt(connIndex(cols), f) }

// connIndex maps the fields a row has to their column (the first of the
// aliases), once per header.
func connIndex(cols []string) map[string]int {
	idx := map[string]int{}
	for k, h := range cols {
		if name, ok := connAliases[h]; ok {
			if _, dup := idx[name]; !dup {
				idx[name] = k
			}
		}
	}
	return idx
}

func connRowAt(idx map[string]int, f []string) (VerbsConn, string) {
	// A row whose name column holds a state word (and whose state column
	// does not) has no name: shift the rest one column right.
	if n, ok := idx["name"]; ok && n < len(f) && knownConnStates[strings.ToLower(f[n])] {
		s, ok := idx["state"]
		if ok && s > n && (s >= len(f) || !knownConnStates[strings.ToLower(f[s])]) {
			f = append(f[:n:n], append([]string{"-"}, f[n:]...)...)
		}
	}
	get := func(name string) string {
		k, ok := idx[name]
		if !ok || k >= len(f) {
			return ""
		}
		return f[k]
	}
	e := VerbsConn{Name: get("name"), State: get("state"), Device: get("device")}
	if k, ok := idx["dest"]; ok {
		e.Dest = get("dest")
		if k >= len(f) {
			return e, "missing destination"
		}
	} else if _, ok := idx["name"]; !ok {
		e.Dest = f[0] // the default layout
	}
	if e.Dest != "" {
		if _, err := netip.ParseAddr(e.Dest); err != nil {
			return e, "bad destination address " + strconv.Quote(e.Dest)
		}
	}
	if e.Name == "-" {
		e.Name = ""
	}
	if e.Dest == "" && e.Name == "" {
		return e, "row names neither a destination address nor a node"
	}
	if e.State == "" {
		return e, "missing connection state"
	}
	e.Connected = connectedStates[strings.ToLower(e.State)]
	if dev, port, ok := strings.Cut(e.Device, "/"); ok && get("port") == "" {
		e.Device = dev
		e.Port = optInt(port)
	}
	if p := get("port"); p != "" && p != "-" {
		v, err := strconv.Atoi(p)
		if err != nil {
			return e, "bad port " + strconv.Quote(p)
		}
		e.Port = &v
	}
	if q := get("qps"); q != "" && q != "-" {
		v, err := strconv.Atoi(q)
		if err != nil {
			return e, "bad QP count " + strconv.Quote(q)
		}
		e.QPs = &v
	}
	if e.Device == "-" {
		e.Device = ""
	}
	return e, ""
}
