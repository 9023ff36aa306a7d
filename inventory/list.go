package inventory

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// listFile names the source of FromList diagnostics.
const listFile = "<host list>"

// FromList builds an inventory from a comma-separated host list, as given
// to "-i host1,host2". Items are "[user@]host[:port]", where host may be a
// range ("gpfs[01:04]") or a bracketed IPv6 address ("[fe80::1]:22"); blank
// items (a trailing comma) are skipped. The caller decides whether an -i
// argument is a list or a file (Ansible: a list contains a comma).
func FromList(list string) (*Inventory, hcl.Diagnostics) {
	b := newBuilder()
	offset := 0
	seen := map[string]bool{}
	for _, raw := range strings.Split(list, ",") {
		start := offset
		offset += len(raw) + 1
		item := strings.TrimSpace(raw)
		if item == "" {
			continue
		}
		lead := strings.Index(raw, item)
		rng := hcl.Range{
			Filename: listFile,
			Start:    hcl.Pos{Line: 1, Column: start + lead + 1, Byte: start + lead},
			End:      hcl.Pos{Line: 1, Column: start + lead + len(item) + 1, Byte: start + lead + len(item)},
		}
		var c connDef
		if user, rest, ok := strings.Cut(item, "@"); ok {
			if user == "" {
				b.errorf(rng, "Invalid host", "Empty user name in %q.", item)
				continue
			}
			c.c.User, c.set = user, fUser
			item = rest
		}
		names, addrs, port, err := listItem(item)
		if err != nil {
			b.errorf(rng, "Invalid host", "%s.", err)
			continue
		}
		if !b.room(len(names), rng) {
			continue
		}
		if port != 0 {
			c.c.Port, c.set = port, c.set|fPort
		}
		for i, n := range names {
			if seen[n] {
				b.errorf(rng, "Duplicate host", "Host %q appears more than once in the list.", n)
				continue
			}
			seen[n] = true
			h := b.host(n, rng)
			h.address = addrs[i]
			h.conn = c
		}
	}
	if !b.diags.HasErrors() && len(b.hosts) == 0 {
		b.errorf(hcl.Range{Filename: listFile, Start: hcl.InitialPos, End: hcl.InitialPos}, "Empty host list", "The host list %q names no hosts.", list)
	}
	inv, diags := b.build()
	if inv != nil {
		inv.Hash = hashHex([]byte(list))
	}
	return inv, diags
}

// listItem reads "host[:port]" with ranges or "[ipv6][:port]".
func listItem(item string) (names, addrs []string, port int, err error) {
	if strings.HasPrefix(item, "[") {
		if end := strings.IndexByte(item, ']'); end > 0 {
			if a, perr := netip.ParseAddr(item[1:end]); perr == nil && a.Is6() {
				rest := item[end+1:]
				if rest != "" {
					if !strings.HasPrefix(rest, ":") {
						return nil, nil, 0, fmt.Errorf("unexpected %q after address in %q", rest, item)
					}
					if _, port, err = splitHostPort("x" + rest); err != nil {
						return nil, nil, 0, err
					}
				}
				s := a.String()
				return []string{s}, []string{s}, port, nil
			}
		}
	}
	host, port, err := splitHostPort(item)
	if err != nil {
		return nil, nil, 0, err
	}
	names, err = ExpandRange(host)
	if err != nil {
		return nil, nil, 0, err
	}
	for _, n := range names {
		if err := checkHostName(n); err != nil {
			return nil, nil, 0, err
		}
	}
	return names, names, port, nil
}
