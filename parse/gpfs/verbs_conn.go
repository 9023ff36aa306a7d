package gpfs

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
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
	"hostname": "name", "node": "name", "nodename": "name", "name": "name", "host": "name",
	"state": "state", "status": "state", "connstate": "state",
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

// ParseVerbsConn reads "mmfsadm test verbs conn" as assumed in
// docs/gpfs-verbs-conn.md: optional title lines ending in ':', an optional
// header line whose columns include "destination", then one row per
// connection starting with the destination IP address. Unknown columns are
// ignored; a row may omit the node name.
func ParseVerbsConn(data []byte) (*VerbsConns, error) {
	const tool = "mmfsadm test verbs conn"
	c := &VerbsConns{Conns: []VerbsConn{}}
	var cols []string
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasSuffix(line, ":") || strings.Trim(line, "-= ") == "" {
			continue
		}
		if strings.HasPrefix(line, "VERBS RDMA") {
			c.Notes = append(c.Notes, line)
			continue
		}
		f := strings.Fields(line)
		if _, err := netip.ParseAddr(f[0]); err != nil && cols == nil {
			if hasColumn(f, "destination", "dest") {
				cols = make([]string, len(f))
				for k, h := range f {
					cols[k] = strings.ToLower(h)
				}
				c.Columns = cols
				continue
			}
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a header or a row starting with the destination IP address"}
		}
		if cols == nil {
			cols = defaultConnColumns
			c.Columns = cols
		}
		e, err := connRow(cols, f)
		if err != "" {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: err}
		}
		e.Line = i + 1
		c.Conns = append(c.Conns, e)
	}
	return c, nil
}

func connRow(cols, f []string) (VerbsConn, string) {
	idx := map[string]int{}
	for k, h := range cols {
		if name, ok := connAliases[h]; ok {
			if _, dup := idx[name]; !dup {
				idx[name] = k
			}
		}
	}
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
	e := VerbsConn{Dest: f[0], Name: get("name"), State: get("state"), Device: get("device")}
	if k, ok := idx["dest"]; ok && k < len(f) {
		e.Dest = f[k]
	}
	if _, err := netip.ParseAddr(e.Dest); err != nil {
		return e, "bad destination address " + strconv.Quote(e.Dest)
	}
	if e.Name == "-" {
		e.Name = ""
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

func hasColumn(f []string, names ...string) bool {
	for _, h := range f {
		for _, n := range names {
			if strings.EqualFold(h, n) {
				return true
			}
		}
	}
	return false
}
