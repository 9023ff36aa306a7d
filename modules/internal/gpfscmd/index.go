package gpfscmd

import (
	"net/netip"
	"strings"

	"github.com/provadev/prova/parse/gpfs"
)

// NodeIndex finds cluster nodes by every name and address mmlscluster
// gives (daemon and admin names, short and long, IP addresses) in constant
// time, so that matching N peers against N connection rows is O(N), not
// O(N²). The matching rules are FindNode's: case-insensitive, a short name
// matches a long one with that short name, two different domains never
// match.
type NodeIndex struct {
	nodes []gpfs.ClusterNode
	full  map[string]int     // lowercased daemon or admin name, as printed
	short map[string]int     // short part of a long (dotted) name; -1 when ambiguous
	ip    map[netip.Addr]int // daemon IP address
}

// IndexNodes indexes the nodes of c (once per distinct mmlscluster output
// for a cluster Cluster returned). The index is shared: read it only.
func IndexNodes(c *gpfs.Cluster) *NodeIndex {
	if x := cachedIndex(c); x != nil {
		return x
	}
	return buildIndex(c)
}

func buildIndex(c *gpfs.Cluster) *NodeIndex {
	x := &NodeIndex{nodes: c.Nodes, full: map[string]int{}, short: map[string]int{}, ip: map[netip.Addr]int{}}
	for i, n := range c.Nodes {
		for _, name := range []string{n.DaemonName, n.AdminName} {
			if name == "" {
				continue
			}
			l := strings.ToLower(name)
			if _, dup := x.full[l]; !dup {
				x.full[l] = i
			}
			if s, _, dotted := strings.Cut(l, "."); dotted {
				if j, seen := x.short[s]; seen && j != i {
					x.short[s] = -1
				} else {
					x.short[s] = i
				}
			}
		}
		if a, err := netip.ParseAddr(n.IP); err == nil {
			x.ip[a.Unmap()] = i
		}
	}
	return x
}

// Find returns the node named or addressed by q and its position in
// mmlscluster order.
func (x *NodeIndex) Find(q string) (gpfs.ClusterNode, int, bool) {
	if q == "" {
		return gpfs.ClusterNode{}, -1, false
	}
	if a, err := netip.ParseAddr(q); err == nil {
		if i, ok := x.ip[a.Unmap()]; ok {
			return x.nodes[i], i, true
		}
		return gpfs.ClusterNode{}, -1, false
	}
	l := strings.ToLower(q)
	if i, ok := x.full[l]; ok {
		return x.nodes[i], i, true
	}
	if s, _, dotted := strings.Cut(l, "."); dotted {
		// a long query matches a node listed by its short name only
		if i, ok := x.full[s]; ok && !strings.Contains(s, ".") {
			return x.nodes[i], i, true
		}
		return gpfs.ClusterNode{}, -1, false
	}
	if i, ok := x.short[l]; ok && i >= 0 {
		return x.nodes[i], i, true
	}
	return gpfs.ClusterNode{}, -1, false
}
