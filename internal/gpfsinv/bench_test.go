package gpfsinv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/provadev/prova/inventory"
)

// bigOutputs are the three outputs of a cluster of n nodes: 10% NSD
// servers, 5 quorum nodes, 4 user classes plus the system ones.
func bigOutputs(n int) Outputs {
	var cl, nc, ns strings.Builder
	cl.WriteString("GPFS cluster information\n========================\n  GPFS cluster name:         big.example\n  GPFS cluster id:           7\n\n" +
		" Node  Daemon node name        IP address    Admin node name         Designation\n" + strings.Repeat("-", 80) + "\n")
	var all, servers []string
	for i := 1; i <= n; i++ {
		d := ""
		if i <= 5 {
			d = "quorum-manager"
		}
		fmt.Fprintf(&cl, "%5d   node%04d-ib.example   10.1.%d.%d   node%04d.example   %s\n", i, i, i/250, i%250+1, i, d)
		all = append(all, fmt.Sprintf("node%04d-ib.example", i))
		if i%10 == 0 {
			servers = append(servers, fmt.Sprintf("node%04d-ib.example", i))
		}
	}
	nc.WriteString("Node Class Name       Members\n--------------------- ----\n")
	for r := 0; r < 4; r++ {
		fmt.Fprintf(&nc, "rack%d                 %s\n", r, strings.Join(all[r*n/4:(r+1)*n/4], ","))
	}
	fmt.Fprintf(&nc, "quorumNodes           %s\n", strings.Join(all[:5], ","))
	fmt.Fprintf(&nc, "nsdNodes              %s\n", strings.Join(servers, ","))
	ns.WriteString("\n File system   Disk name    NSD servers\n" + strings.Repeat("-", 60) + "\n")
	for i, s := range servers {
		fmt.Fprintf(&ns, " gpfs0         nsd%04d      %s,%s\n", i, s, servers[(i+1)%len(servers)])
	}
	return Outputs{"mmlscluster": cl.String(), "mmlsnodeclass --all": nc.String(), "mmlsnsd": ns.String()}
}

// BenchmarkBuildAndMerge1000 reads the outputs of a 1,000-node cluster
// and merges the nodes into an inventory, as every plan and apply with a
// gpfs_cluster block does.
func BenchmarkBuildAndMerge1000(b *testing.B) {
	outs := bigOutputs(1000)
	src := inventory.GPFSSource{Admin: "node0001.example", Group: "gpfs"}
	empty, err := inventory.FromGPFS(src)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := Build("node0001.example", outs)
		if err != nil {
			b.Fatal(err)
		}
		inv, diags := empty.WithGPFS([]*inventory.GPFSCluster{c})
		if diags.HasErrors() || len(inv.Hosts) != 1000 || len(inv.Groups["rack3"].Hosts) != 250 || len(inv.Groups["nsd_servers"].Hosts) != 100 {
			b.Fatalf("%d hosts, %v", len(inv.Hosts), diags)
		}
	}
}
