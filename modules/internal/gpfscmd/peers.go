package gpfscmd

import (
	"context"
	"fmt"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/gpfs"
)

// VerbsConn runs mmfsadm test verbs conn on h and parses it. A daemon that
// mmfsadm cannot reach gives no connections and down names why.
func VerbsConn(ctx context.Context, h module.Host) (c *gpfs.VerbsConns, raw, down string, err error) {
	out, err := Probe(ctx, h, MM("mmfsadm", "test", "verbs", "conn"))
	if err != nil {
		return nil, "", "", err
	}
	if NotInstalled(out) {
		return nil, out.Stdout, "", Failure(h, "mmfsadm", out)
	}
	if out.RC != 0 {
		return &gpfs.VerbsConns{Conns: []gpfs.VerbsConn{}}, out.Stdout + out.Stderr, LastLine(out), nil
	}
	c, err = gpfs.ParseVerbsConn([]byte(out.Stdout))
	if err != nil {
		return nil, out.Stdout, "", ParseFailure(h, err)
	}
	return c, out.Stdout, "", nil
}

// PeerReport is the RDMA picture of one node: which peers it should reach and
// which it reaches over a connected RDMA connection.
type PeerReport struct {
	Self       string   // this node's daemon name ("" when not found)
	Expected   []string // daemon names (or names as given, when not in the cluster)
	RDMA       []string // expected peers with a connected row
	Missing    []string // expected peers without one: they talk TCP
	Unexpected []string // connected rows matching no expected peer
	Notes      []string
}

// Report matches conns against the expected peers: expected is a list of
// names or IPs, or nil for every cluster node but self. A peer matches a
// row by IP address or by name (short or long).
func Report(cl *gpfs.Cluster, self gpfs.ClusterNode, selfFound bool, conns *gpfs.VerbsConns, expected []string, host string) PeerReport {
	r := PeerReport{Expected: []string{}, RDMA: []string{}, Missing: []string{}, Unexpected: []string{}}
	if selfFound {
		r.Self = self.DaemonName
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("%s is not in mmlscluster by name or address; expecting every listed node", host))
	}
	type peer struct{ name, ip string }
	var peers []peer
	if expected == nil {
		for _, n := range cl.Nodes {
			if selfFound && n.DaemonName == self.DaemonName {
				continue
			}
			peers = append(peers, peer{n.DaemonName, n.IP})
		}
	} else {
		for _, e := range expected {
			if n, ok := FindNode(cl, e); ok {
				if selfFound && n.DaemonName == self.DaemonName {
					continue
				}
				peers = append(peers, peer{n.DaemonName, n.IP})
				continue
			}
			r.Notes = append(r.Notes, fmt.Sprintf("expected peer %s is not in mmlscluster; matched by name only", e))
			peers = append(peers, peer{e, ""})
		}
	}
	used := make([]bool, len(conns.Conns))
	for _, p := range peers {
		r.Expected = append(r.Expected, p.name)
		if conns.Connected(p.ip, p.name) {
			r.RDMA = append(r.RDMA, p.name)
		} else {
			r.Missing = append(r.Missing, p.name)
		}
		for i, c := range conns.Conns {
			if (p.ip != "" && c.Dest == p.ip) || (c.Name != "" && SameNode(c.Name, p.name)) {
				used[i] = true
			}
		}
	}
	seen := map[string]bool{}
	for i, c := range conns.Conns {
		if used[i] || !c.Connected {
			continue
		}
		name := c.Dest
		if n, ok := FindNode(cl, c.Dest); ok {
			name = n.DaemonName
		} else if c.Name != "" {
			name = c.Name
		}
		if !seen[name] && !(selfFound && name == self.DaemonName) {
			seen[name] = true
			r.Unexpected = append(r.Unexpected, name)
		}
	}
	return r
}
