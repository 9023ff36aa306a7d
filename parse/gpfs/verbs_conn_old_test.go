package gpfs

// ParseVerbsConn as it was before it read from a string without copying
// and indexed the header once: the differential test's reference.

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

func oldParseVerbsConn(data []byte) (*VerbsConns, error) {
	const tool = "mmfsadm test verbs conn"
	c := &VerbsConns{Conns: []VerbsConn{}, Empty: text.Blank(data), Truncated: text.EndsMidLine(data)}
	var cols []string
	lines := text.Lines(data)
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
				continue
			}
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a header naming the destination or node and the state, or a row starting with the destination IP address"}
		}
		if cols == nil {
			cols = defaultConnColumns
			c.Columns = cols
		}
		e, err := oldConnRow(cols, f)
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

func oldConnRow(cols, f []string) (VerbsConn, string) {
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
