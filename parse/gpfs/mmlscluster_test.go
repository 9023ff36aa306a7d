package gpfs

import (
	"testing"
)

func TestMmlsclusterSample(t *testing.T) {
	c, err := ParseMmlscluster(segmentOf(t, "gpfs/mmlscluster-ccr-7-nodes.txt", "mmlscluster", 0))
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "GPFS.ESI-Group" || c.ID != "1194318350905388747" || c.UIDDomain != "GPFS.ESI-Group" ||
		c.RemoteShell != "/usr/bin/ssh" || c.RemoteCopy != "/usr/bin/scp" || c.RepositoryType != "CCR" || !c.CCR {
		t.Errorf("cluster = %+v", c)
	}
	if len(c.Nodes) != 7 {
		t.Fatalf("%d nodes, want 7", len(c.Nodes))
	}
	n := c.Nodes[0]
	if n.Number != 1 || n.DaemonName != "gpfs01" || n.IP != "10.25.80.15" || n.AdminName != "gpfs01" ||
		n.Designation != "quorum-manager" || !n.Quorum || !n.Manager || len(n.Roles) != 0 {
		t.Errorf("node 1 = %+v", n)
	}
	m, ok := c.Node("10.25.80.12")
	if !ok || m.DaemonName != "login01" || m.Number != 184 || m.Quorum || m.Manager || m.Designation != "" {
		t.Errorf("Node(10.25.80.12) = %+v, %v", m, ok)
	}
	if _, ok := c.Node("n095.example"); !ok {
		t.Error("long name did not match short daemon name")
	}
}

func TestMmlsclusterDesignations(t *testing.T) {
	in := `GPFS cluster information
========================
  GPFS cluster name:         lab.example
  GPFS cluster id:           42

GPFS cluster configuration servers:
-----------------------------------
  Primary server:    gpfs01
  Secondary server:  gpfs02

 Node  Daemon node name  IP address  Admin node name  Designation
-------------------------------------------------------------------
   1   gpfs01            10.0.0.1    gpfs01-adm       quorum
   2   gpfs02            10.0.0.2    gpfs02           manager
   3   gpfs03            fd00::3     gpfs03           quorum-manager-perfmon
`
	c, err := ParseMmlscluster([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c.CCR || c.Info["Primary server"] != "gpfs01" {
		t.Errorf("cluster = %+v", c)
	}
	if !c.Nodes[0].Quorum || c.Nodes[0].Manager || c.Nodes[0].AdminName != "gpfs01-adm" {
		t.Errorf("node 1 = %+v", c.Nodes[0])
	}
	if c.Nodes[1].Quorum || !c.Nodes[1].Manager {
		t.Errorf("node 2 = %+v", c.Nodes[1])
	}
	if n := c.Nodes[2]; !n.Quorum || !n.Manager || len(n.Roles) != 1 || n.Roles[0] != "perfmon" || n.IP != "fd00::3" {
		t.Errorf("node 3 = %+v", n)
	}
}

func TestMmlsclusterErrors(t *testing.T) {
	hdr := " Node  Daemon node name  IP address  Admin node name  Designation\n"
	_, err := ParseMmlscluster([]byte(hdr + "   1   gpfs01  10.0.0.300  gpfs01\n"))
	wantParseError(t, err, "mmlscluster", 2)
	_, err = ParseMmlscluster([]byte(hdr + "   1   gpfs01\n"))
	wantParseError(t, err, "mmlscluster", 2)
	_, err = ParseMmlscluster([]byte("mmlscluster: This node does not belong to a GPFS cluster.\n"))
	wantParseError(t, err, "mmlscluster", 1)
	// A key: value line before any "... information" title is not read.
	_, err = ParseMmlscluster([]byte("Last login: Tue Dec  1 08:00:00 2026 from 10.0.0.1\nGPFS cluster information\n  GPFS cluster name:  x\n"))
	wantParseError(t, err, "mmlscluster", 1)
	_, err = ParseMmlscluster([]byte(""))
	wantParseError(t, err, "mmlscluster", 0)
	_, err = ParseMmlscluster([]byte("   1   gpfs01  10.0.0.1  gpfs01\n"))
	wantParseError(t, err, "mmlscluster", 1)
}
