package verbsdiag

import (
	"fmt"
	"strings"
	"testing"

	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
	"github.com/provadev/prova/parse/ibstat"
)

// facts1000 is one node of a 1,000-node cluster that reaches no peer, with
// every node's OFED version known and one odd version.
func facts1000() Facts {
	cl := &gpfs.Cluster{}
	versions := map[string]string{}
	var peers []string
	for i := 1; i <= 1000; i++ {
		n := fmt.Sprintf("gpfs%04d", i)
		cl.Nodes = append(cl.Nodes, gpfs.ClusterNode{DaemonName: n, AdminName: n, IP: fmt.Sprintf("10.1.%d.%d", i/250, i%250)})
		versions[n] = "23.10-1.1.9.0"
		if i > 1 {
			peers = append(peers, n)
		}
	}
	versions["gpfs0500"] = "5.4-3.1.0.0"
	st, _ := ibstat.Parse([]byte("CA 'mlx5_0'\n\tPort 1:\n\t\tState: Active\n\t\tPhysical state: LinkUp\n"))
	return Facts{Node: "gpfs0001", Ports: &gpfscmd.PortsState{Ibstat: st}, OFEDInstalled: true, OFEDVersion: "23.10-1.1.9.0",
		VerbsRdma: "enable", VerbsPorts: "mlx5_0/1", Started: true, Status: "started",
		Expected: peers, Missing: peers, Versions: versions, PeerKey: peerKeys(cl, versions),
		Log: gpfscmd.LogSummary{StartFound: true}}
}

func TestDecide1000(t *testing.T) {
	v := Decide(facts1000())
	if v.Cause != CauseConnectFailed || !strings.Contains(v.Explanation, "gpfs0001 has no RDMA connection to gpfs0002") {
		t.Fatalf("%s: %s", v.Cause, v.Explanation[:200])
	}
}

// BenchmarkDecide1000 is one node's diagnosis in a 1,000-node cluster with
// every peer missing: linear in the peers since the OFED counts are cached
// and ofed_versions keys are resolved once.
func BenchmarkDecide1000(b *testing.B) {
	f := facts1000()
	b.ReportAllocs()
	for b.Loop() {
		Decide(f)
	}
}

// The evidence of one node names every node's OFED version, folded by
// version: the odd node by name, the others as one range, so the line does
// not grow with the cluster.
func TestEvidenceFoldsVersions1000(t *testing.T) {
	v := Decide(facts1000())
	var line string
	for _, e := range v.Evidence {
		if strings.HasPrefix(e, "OFED versions: ") {
			line = e
		}
	}
	want := "OFED versions: 23.10-1.1.9.0 on 999 hosts gpfs[0001-0499,0501-1000]; 5.4-3.1.0.0 on 1 host gpfs0500"
	if line != want {
		t.Errorf("evidence line\n%s\nwant\n%s", line, want)
	}
}
