package gpfs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMmlsconfigSample(t *testing.T) {
	c, err := ParseMmlsconfig(segmentOf(t, "gpfs/mmlsconfig-clean-4.2.3-PARTIAL.txt", "mmlsconfig", 0))
	if err != nil {
		t.Fatal(err)
	}
	if c.ClusterName != "test.gpfs01" {
		t.Errorf("cluster name = %q", c.ClusterName)
	}
	if len(c.Entries) != 25 { // 7 cluster-wide + 18 in [gpfs01,gpfs02,gpfs03]
		t.Errorf("%d entries, want 25", len(c.Entries))
	}
	for _, tc := range []struct{ attr, node, want string }{
		{"clusterId", "gpfs01", "9842223104266949822"},
		{"minReleaseLevel", "gpfs02", "4.2.3.0"},
		{"maxFilesToCache", "gpfs03", "4M"},
		{"worker1Threads", "gpfs01.example.com", "720"},
		{"nsdInlineWriteMax", "gpfs02", "8K"},
	} {
		got, ok := c.Effective(tc.attr, tc.node, nil)
		if !ok || got != tc.want {
			t.Errorf("Effective(%s, %s) = %q, %v; want %q", tc.attr, tc.node, got, ok, tc.want)
		}
	}
	// The node-list section does not apply to a node outside it.
	if v, ok := c.Effective("worker1Threads", "client01", nil); ok {
		t.Errorf("worker1Threads applies to client01: %q", v)
	}
	e := c.Values("worker1Threads")
	if len(e) != 1 || !cmp.Equal(e[0].Nodes, []string{"gpfs01", "gpfs02", "gpfs03"}) {
		t.Errorf("worker1Threads entries = %+v", e)
	}
}

const mmlsconfigFull = `Configuration data for cluster lab.example:
--------------------------------------------
clusterName lab.example
clusterId 1234567890
autoload yes
pagepool 1G
verbsRdma disable
[nsdNodes]
pagepool 32G
verbsRdma enable
[common]
verbsPorts mlx5_0/1 mlx5_1/1
[gpfs02,gpfs03]
verbsPorts mlx5_0/1
[nsdNodes]
verbsRdmaSend yes
[common]
adminMode central

File systems in cluster lab.example:
------------------------------------
/dev/fs1
/dev/fs2
`

func TestMmlsconfigSectionsAndEffective(t *testing.T) {
	c, err := ParseMmlsconfig([]byte(mmlsconfigFull))
	if err != nil {
		t.Fatal(err)
	}
	if !cmp.Equal(c.FileSystems, []string{"/dev/fs1", "/dev/fs2"}) {
		t.Errorf("file systems = %q", c.FileSystems)
	}
	tests := []struct {
		attr, node string
		classes    []string
		want       string
		ok         bool
	}{
		{"pagepool", "client1", nil, "1G", true},
		{"pagepool", "gpfs01", []string{"nsdNodes"}, "32G", true},
		{"PAGEPOOL", "gpfs01", []string{"NSDNODES"}, "32G", true},
		{"verbsRdma", "gpfs02", []string{"nsdNodes"}, "enable", true},
		{"verbsRdma", "client1", []string{"clientNodes"}, "disable", true},
		{"verbsPorts", "client1", nil, "mlx5_0/1 mlx5_1/1", true},
		{"verbsPorts", "gpfs02", nil, "mlx5_0/1", true},
		// an explicit node entry wins over the class entry
		{"verbsPorts", "gpfs03.lab.example", []string{"nsdNodes"}, "mlx5_0/1", true},
		{"verbsRdmaSend", "client1", nil, "", false},
		{"verbsRdmaSend", "gpfs01", []string{"nsdNodes"}, "yes", true},
		{"adminMode", "x", nil, "central", true},
		{"nosuch", "x", nil, "", false},
	}
	for _, tc := range tests {
		got, ok := c.Effective(tc.attr, tc.node, tc.classes)
		if got != tc.want || ok != tc.ok {
			t.Errorf("Effective(%s, %s, %v) = %q, %v; want %q, %v", tc.attr, tc.node, tc.classes, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMmlsconfigSingleAttribute(t *testing.T) {
	c, err := ParseMmlsconfig([]byte("pagepool 4G\npagepool 16G [nsdNodes]\npagepool 8G [gpfs01,gpfs02]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) != 3 || !cmp.Equal(c.Entries[2].Nodes, []string{"gpfs01", "gpfs02"}) || c.Entries[2].Value != "8G" {
		t.Fatalf("entries = %+v", c.Entries)
	}
	if v, _ := c.Effective("pagepool", "gpfs09", []string{"nsdNodes"}); v != "16G" {
		t.Errorf("gpfs09 pagepool = %q", v)
	}
}

func TestMmlsconfigY(t *testing.T) {
	in := "mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\n" +
		"mmlsconfig::0:1:::clusterName:lab.example::\n" +
		"mmlsconfig::0:1:::verbsPorts:mlx5_0/1 mlx5_1/1::\n" +
		"mmlsconfig::0:1:::verbsRdma:enable:nsdNodes:\n" +
		"mmlsconfig::0:1:::pagepool:16G:gpfs01,gpfs02:\n" +
		"mmlsconfig::0:1:::opensslLibName:/lib64/libssl.so.10%3A/lib64/libssl.so.6::\n"
	c, err := ParseMmlsconfigY([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if c.ClusterName != "lab.example" || len(c.Entries) != 5 {
		t.Fatalf("config = %+v", c)
	}
	if v, _ := c.Effective("opensslLibName", "n", nil); v != "/lib64/libssl.so.10:/lib64/libssl.so.6" {
		t.Errorf("percent decoding: %q", v)
	}
	if v, _ := c.Effective("verbsRdma", "n1", []string{"nsdNodes"}); v != "enable" {
		t.Errorf("verbsRdma = %q", v)
	}
	if !cmp.Equal(c.Entries[3].Nodes, []string{"gpfs01", "gpfs02"}) {
		t.Errorf("nodes = %q", c.Entries[3].Nodes)
	}
}

func TestMmlsconfigErrors(t *testing.T) {
	_, err := ParseMmlsconfig([]byte("clusterName x\nmmlsconfig: Unable to connect to the CCR server\n"))
	wantParseError(t, err, "mmlsconfig", 2)
	_, err = ParseMmlsconfig([]byte("clusterName x\n[ , ]\n"))
	wantParseError(t, err, "mmlsconfig", 2)
	_, err = ParseMmlsconfig([]byte("File systems in cluster x:\n/dev/fs1 extra\n"))
	wantParseError(t, err, "mmlsconfig", 2)
	_, err = ParseMmlsconfigY([]byte("mmlsconfig::0:1:::pagepool:1G::\n"))
	wantParseError(t, err, "mmlsconfig -Y", 1)
	_, err = ParseMmlsconfigY([]byte("mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\nmmgetstate::0:1:::x:\n"))
	wantParseError(t, err, "mmlsconfig -Y", 2)
}
