package gpfscmd

import (
	"fmt"
	"testing"

	"github.com/provadev/prova/parse/gpfs"
)

func TestNodeIndex(t *testing.T) {
	c := &gpfs.Cluster{Nodes: []gpfs.ClusterNode{
		{DaemonName: "gpfs01-ib.example.com", AdminName: "gpfs01", IP: "10.0.0.1"},
		{DaemonName: "gpfs02", AdminName: "gpfs02.admin.example.com", IP: "fd00::2"},
		{DaemonName: "a.one.example", AdminName: "a.one.example", IP: "10.0.0.3"},
		{DaemonName: "a.two.example", AdminName: "a.two.example", IP: "10.0.0.4"},
	}}
	x := IndexNodes(c)
	for q, want := range map[string]int{
		"gpfs01-ib.example.com": 0, "GPFS01-IB": 0, "gpfs01": 0, "gpfs01.example.com": 0, "10.0.0.1": 0,
		"gpfs02": 1, "gpfs02.admin.example.com": 1, "gpfs02.other": 1, "fd00:0::2": 1,
		"a.one.example": 2, "a.two.example": 3, "a": -1, "10.0.0.9": -1, "": -1, "gpfs03": -1,
	} {
		_, i, ok := x.Find(q)
		if ok != (want >= 0) || (ok && i != want) {
			t.Errorf("Find(%q) = %d %t, want %d", q, i, ok, want)
		}
		// FindNode, the one-off linear lookup, agrees.
		if n, ok2 := FindNode(c, q); ok2 != ok || (ok && n.DaemonName != c.Nodes[i].DaemonName) {
			t.Errorf("FindNode(%q) = %+v %t", q, n, ok2)
		}
	}
}

// cluster1000 is a 1,000-node cluster and a node's verbs conn with a
// connected row to every peer but one.
func cluster1000() (*gpfs.Cluster, *gpfs.VerbsConns) {
	c := &gpfs.Cluster{}
	v := &gpfs.VerbsConns{}
	for i := 1; i <= 1000; i++ {
		name := fmt.Sprintf("gpfs%04d", i)
		ip := fmt.Sprintf("10.1.%d.%d", i/250, i%250)
		c.Nodes = append(c.Nodes, gpfs.ClusterNode{DaemonName: name, AdminName: name, IP: ip})
		if i > 2 {
			for port := 0; port < 2; port++ {
				v.Conns = append(v.Conns, gpfs.VerbsConn{Dest: ip, Name: name, State: "connected", Connected: true})
			}
		}
	}
	return c, v
}

func TestReport1000(t *testing.T) {
	c, v := cluster1000()
	r := Report(c, c.Nodes[0], true, v, nil, "gpfs0001")
	if len(r.Expected) != 999 || len(r.RDMA) != 998 || len(r.Missing) != 1 || r.Missing[0] != "gpfs0002" || len(r.Unexpected) != 0 {
		t.Fatalf("expected %d rdma %d missing %v unexpected %v", len(r.Expected), len(r.RDMA), r.Missing, r.Unexpected)
	}
}

// BenchmarkReport1000 is one node's peer matching in a 1,000-node cluster
// (linear since NodeIndex; it was a scan of every row per peer).
func BenchmarkReport1000(b *testing.B) {
	c, v := cluster1000()
	b.ReportAllocs()
	for b.Loop() {
		Report(c, c.Nodes[0], true, v, nil, "gpfs0001")
	}
}
