package gpfscmd

import (
	"context"
	"net/netip"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/gpfs"
)

// SameNode reports whether two node names mean the same node: equal
// ignoring case, or a short name and a long name with that short name
// ("gpfs01" and "gpfs01.example.com"). Two different domains never match.
func SameNode(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if strings.EqualFold(a, b) {
		return true
	}
	sa, _, _ := strings.Cut(a, ".")
	sb, _, _ := strings.Cut(b, ".")
	if _, err := netip.ParseAddr(a); err == nil {
		return false
	}
	if _, err := netip.ParseAddr(b); err == nil {
		return false
	}
	return strings.EqualFold(sa, sb) && (sa == a) != (sb == b)
}

// Cluster runs mmlscluster on h and parses it.
func Cluster(ctx context.Context, h module.Host) (*gpfs.Cluster, string, error) {
	out, err := Run(ctx, h, "mmlscluster", MM("mmlscluster"))
	if err != nil {
		return nil, out.Stdout, err
	}
	c, err := parseCluster(out.Stdout)
	if err != nil {
		return nil, out.Stdout, ParseFailure(h, err)
	}
	return c, out.Stdout, nil
}

// FindNode finds a cluster node by daemon name, admin name (short names
// match long ones; a short name two domains share matches neither) or IP
// address. For many lookups build a NodeIndex once.
func FindNode(c *gpfs.Cluster, nameOrIP string) (gpfs.ClusterNode, bool) {
	n, _, ok := IndexNodes(c).Find(nameOrIP)
	return n, ok
}

// HostnameCommand prints the host's name and its addresses; LocalNode runs
// it only when the inventory name matches no cluster node.
const HostnameCommand = "hostname; hostname -I"

// LocalNode finds the cluster node that h is. The inventory name is tried
// first (daemon or admin name, short or long); when it matches nothing,
// the host's own name and addresses (hostname; hostname -I) are tried, so
// an inventory that names hosts differently from GPFS still works when the
// addresses agree. found is false when nothing matches.
func LocalNode(ctx context.Context, h module.Host, c *gpfs.Cluster) (node gpfs.ClusterNode, found bool, err error) {
	if n, ok := FindNode(c, h.Name()); ok {
		return n, true, nil
	}
	out, err := Probe(ctx, h, HostnameCommand)
	if err != nil {
		return gpfs.ClusterNode{}, false, err
	}
	for _, w := range strings.Fields(out.Stdout) {
		if n, ok := FindNode(c, w); ok {
			return n, true, nil
		}
	}
	return gpfs.ClusterNode{}, false, nil
}

// Peers returns the cluster nodes other than self, in mmlscluster order.
func Peers(c *gpfs.Cluster, self gpfs.ClusterNode) []gpfs.ClusterNode {
	var out []gpfs.ClusterNode
	for _, n := range c.Nodes {
		if n.DaemonName == self.DaemonName && n.IP == self.IP {
			continue
		}
		out = append(out, n)
	}
	return out
}
