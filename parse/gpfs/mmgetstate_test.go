package gpfs

import (
	"testing"
)

func TestMmgetstateSamples(t *testing.T) {
	type row struct {
		num               int
		name, state       string
		quorum, up, total int
		quorumNode        bool
	}
	check := func(t *testing.T, s *NodeStates, want []row) {
		t.Helper()
		if len(s.Nodes) != len(want) {
			t.Fatalf("%d nodes, want %d: %+v", len(s.Nodes), len(want), s.Nodes)
		}
		for i, w := range want {
			n := s.Nodes[i]
			got := row{n.Number, n.Name, n.State, intp(n.Quorum), intp(n.NodesUp), intp(n.TotalNodes), n.QuorumNode}
			if got != w {
				t.Errorf("node %d = %+v, want %+v", i, got, w)
			}
		}
	}
	t.Run("N single node", func(t *testing.T) {
		s, err := ParseMmgetstate(only(t, "gpfs/mmgetstate-N-single-node-cherub-fixture.txt"))
		if err != nil {
			t.Fatal(err)
		}
		check(t, s, []row{{5, "node001ib", StateActive, -1, -1, -1, false}})
	})
	t.Run("av 9 nodes", func(t *testing.T) {
		s, err := ParseMmgetstate(segmentOf(t, "gpfs/mmgetstate-av-active-9-nodes.txt", "mmgetstate -av", 0))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Nodes) != 9 || s.Nodes[4].Number != 183 || s.Nodes[4].Name != "master" {
			t.Fatalf("nodes = %+v", s.Nodes)
		}
		for _, n := range s.Nodes {
			if n.State != StateActive {
				t.Errorf("%s is %s", n.Name, n.State)
			}
		}
		if n, ok := s.Node("n096"); !ok || n.Number != 187 {
			t.Errorf("Node(n096) = %+v, %v", n, ok)
		}
	})
	t.Run("aL long form", func(t *testing.T) {
		s, err := ParseMmgetstate(segmentOf(t, "gpfs/mmstartup-a-and-mmgetstate-aL-active.txt", "mmgetstate -aL", 0))
		if err != nil {
			t.Fatal(err)
		}
		check(t, s, []row{{1, "c01", StateActive, 2, 2, 2, true}, {2, "c02", StateActive, 2, 2, 2, true}})
		if s.Nodes[0].Remarks != "quorum node" {
			t.Errorf("remarks = %q", s.Nodes[0].Remarks)
		}
	})
	t.Run("aL arbitrating with empty columns", func(t *testing.T) {
		s, err := ParseMmgetstate(segmentOf(t, "gpfs/mmchconfig-tiebreakerDisks-and-mmstartup-2023.txt", "mmgetstate -aL", 0))
		if err != nil {
			t.Fatal(err)
		}
		check(t, s, []row{{1, "2ggpfsnode01-gpfs", StateArbitrating, -1, -1, -1, true}})
	})
	t.Run("a down then active", func(t *testing.T) {
		rel := "gpfs/mmstartup-a-then-mmfslog-then-mmgetstate-active-4.2.3.txt"
		for i, want := range []string{StateDown, StateActive} {
			s, err := ParseMmgetstate(segmentOf(t, rel, "mmgetstate -a", i))
			if err != nil {
				t.Fatal(err)
			}
			check(t, s, []row{{1, "gpfs01", want, -1, -1, -1, false}, {2, "gpfs02", want, -1, -1, -1, false}, {3, "gpfs03", want, -1, -1, -1, false}})
		}
	})
	t.Run("Y", func(t *testing.T) {
		s, err := ParseMmgetstateY(only(t, "gpfs/mmgetstate-Y-active.txt"))
		if err != nil {
			t.Fatal(err)
		}
		check(t, s, []row{{11, "ib-proj-nsd05.domain", StateActive, 4, 7, 1122, false}})
		if n, ok := s.Node("ib-proj-nsd05"); !ok || n.Number != 11 {
			t.Errorf("short name lookup = %+v, %v", n, ok)
		}
	})
}

func TestMmgetstateUnreachable(t *testing.T) {
	in := "\n Node number  Node name  GPFS state\n-------------------------------------\n       1      gpfs01     active\n       2      gpfs02     unknown\nmmgetstate: The following nodes could not be reached:\n    gpfs02\n"
	s, err := ParseMmgetstate([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Unreachable) != 1 || s.Unreachable[0] != "gpfs02" || s.Nodes[1].State != StateUnknown {
		t.Errorf("result = %+v", s)
	}
	s, err = ParseMmgetstate([]byte("mmgetstate: The following nodes could not be reached: n114 n115\n"))
	if err != nil || len(s.Unreachable) != 2 || s.Unreachable[1] != "n115" {
		t.Errorf("inline list: %+v, %v", s, err)
	}
}

func TestMmgetstateYMultiNode(t *testing.T) {
	in := "mmgetstate::HEADER:version:reserved:reserved:nodeName:nodeNumber:state:quorum:nodesUp:totalNodes:remarks:cnfsState:daemonShortName:daemonNodeName:\n" +
		"mmgetstate::0:1:::ec01:1:active:3:4:4:quorum node:(undefined):ec01:ec01:\n" +
		"mmgetstate::0:1:::ec02:2:down:::::(undefined):ec02:ec02:\n"
	s, err := ParseMmgetstateY([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Nodes) != 2 || !s.Nodes[0].QuorumNode || s.Nodes[1].State != StateDown || s.Nodes[1].Quorum != nil {
		t.Errorf("nodes = %+v", s.Nodes)
	}
}

func TestMmgetstateErrors(t *testing.T) {
	hdr := " Node number  Node name  GPFS state\n-------------------------------------\n"
	_, err := ParseMmgetstate([]byte(hdr + "       one    gpfs01     active\n"))
	wantParseError(t, err, "mmgetstate", 3)
	_, err = ParseMmgetstate([]byte("       1      gpfs01     active\n"))
	wantParseError(t, err, "mmgetstate", 1)
	_, err = ParseMmgetstate([]byte(" Node number  Node name  Quorum  Nodes up  Total nodes  GPFS state\n   1  gpfs01  2  2  2\n"))
	wantParseError(t, err, "mmgetstate", 2)
	_, err = ParseMmgetstateY([]byte("mmgetstate::HEADER:version:reserved:reserved:nodeName:nodeNumber:state:\nmmgetstate::0:1:::gpfs01:x:active:\n"))
	wantParseError(t, err, "mmgetstate -Y", 2)
}
