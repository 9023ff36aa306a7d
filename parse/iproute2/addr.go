package iproute2

import (
	"net/netip"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Addr is one address line.
type Addr struct {
	Index     int    `json:"index"`
	Interface string `json:"interface"` // ib0; an alias label (ib0:1) as printed
	Family    string `json:"family"`    // inet or inet6
	Address   string `json:"address"`   // 10.0.0.207, without the prefix length
	Prefix    int    `json:"prefix"`
	Scope     string `json:"scope,omitempty"`
}

// Addrs is the output of ip -o addr show.
type Addrs struct {
	Addrs []Addr `json:"addrs"`
}

// Interface returns the interface that holds address a ("" when none).
func (r *Addrs) Interface(a string) string {
	want, err := netip.ParseAddr(strings.TrimSpace(a))
	if err != nil {
		return ""
	}
	for _, x := range r.Addrs {
		if got, err := netip.ParseAddr(x.Address); err == nil && got == want {
			return x.Interface
		}
	}
	return ""
}

var lineRe = lazyre.New(`^(\d+):\s+(\S+)\s+(inet6?)\s+(\S+)(.*)$`)

// ParseAddr reads `ip -o addr show` (or `ip -o -4 addr`). Nothing printed
// is an error: ip has no empty form (it prints nothing when no interface
// matches), and a host prova reached over SSH holds at least the address
// it was reached on. An address listed twice on one interface (the kernel
// keeps one of each), or an index printed with two names, is two outputs
// run together: an error too.
func ParseAddr(data []byte) (*Addrs, error) {
	const tool = "ip -o addr"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	if text.Blank(data) {
		return nil, &parse.Error{Tool: tool, Reason: "printed nothing: not one address on the host"}
	}
	r := &Addrs{Addrs: []Addr{}}
	names := map[int]string{}
	seen := map[string]bool{}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		m := lineRe.FindStringSubmatch(line)
		if m == nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "not an 'N: IFACE inet ADDR/LEN ...' line"}
		}
		p, err := netip.ParsePrefix(m[4])
		if err != nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad address " + m[4]}
		}
		a := Addr{Interface: m[2], Family: m[3], Address: p.Addr().String(), Prefix: p.Bits()}
		if why := text.IntInto(m[1], &a.Index, "interface index"); why != "" {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: why}
		}
		if n, ok := names[a.Index]; ok && n != a.Interface {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "interface index " + m[1] + " was " + n + " above (two outputs run together?)"}
		}
		names[a.Index] = a.Interface
		key := a.Interface + " " + m[4]
		if seen[key] {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "address " + m[4] + " on " + a.Interface + " listed a second time (two outputs run together?)"}
		}
		seen[key] = true
		f := strings.Fields(m[5])
		for k := 0; k+1 < len(f); k++ {
			if f[k] == "scope" {
				a.Scope = f[k+1]
			}
		}
		r.Addrs = append(r.Addrs, a)
	}
	return r, nil
}

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{{Name: "ip-addr", Command: "ip -o addr show", Parse: parse.Typed(ParseAddr)}}
}
