package gpfs

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestMmlsnsdSamples(t *testing.T) {
	for _, tc := range []struct {
		rel      string
		disks    int
		first    string
		servers  []string
		fs, vol  string
		servedBy string
		served   int
	}{
		{"gpfs/mmlsnsd-L-2-servers-5-nsds-2node-cluster.txt", 5, "nfs_nsd1", []string{"nfs1", "nfs2"}, "gpfs", "0A00033659DD7C41", "nfs2", 5},
		{"gpfs/mmlsnsd-m-2-servers-5-nsds-2node-cluster.txt", 5, "nfs_nsd1", []string{"nfs1", "nfs2"}, "", "0A00033659DD7C41", "nfs1", 5},
		{"gpfs/mmlsnsd-a-1-server-6-nsds-ibmcloud.txt", 6, "nsd_10_241_1_7_vdb", []string{"storage-scale-storage-2.strgscale.com"}, "fs1", "", "storage-scale-storage-2", 2},
	} {
		n, err := ParseMmlsnsd(samples.Read(t, tc.rel))
		if err != nil {
			t.Fatalf("%s: %v", tc.rel, err)
		}
		d := n.Disks[0]
		if len(n.Disks) != tc.disks || d.Name != tc.first || !slices.Equal(d.Servers, tc.servers) || d.FileSystem != tc.fs || d.VolumeID != tc.vol {
			t.Errorf("%s: %+v", tc.rel, n.Disks)
		}
		if got := len(n.ServedBy(tc.servedBy)); got != tc.served {
			t.Errorf("%s: %s serves %d NSDs, want %d", tc.rel, tc.servedBy, got, tc.served)
		}
	}
}

func TestMmlsnsdForms(t *testing.T) {
	n, err := ParseMmlsnsd([]byte(`
 File system   Disk name    NSD servers
---------------------------------------------------------------------------
 gpfs0         nsd01        gpfs01,gpfs02
 (free disk)   nsd09        gpfs02
 gpfs0         san01        (directly attached)
`))
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := n.Disk("nsd09"); d.FileSystem != "" || !slices.Equal(d.Servers, []string{"gpfs02"}) {
		t.Errorf("free disk: %+v", d)
	}
	if d, _ := n.Disk("san01"); len(d.Servers) != 0 {
		t.Errorf("directly attached: %+v", d)
	}
	for in, reason := range map[string]string{
		" gpfs0  nsd01  gpfs01\n":                                   "row before a column header",
		" Disk name  NSD volume ID Device Node name\n nsd01 0A01\n": "expected 'disk name  volume ID  device  node name",
	} {
		_, err := ParseMmlsnsd([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || !strings.Contains(pe.Reason, reason) || pe.Line == 0 {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func TestMmlsmountSamples(t *testing.T) {
	m, err := ParseMmlsmount(samples.Read(t, "gpfs/mmlsmount-all-L-7-nodes-2017.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.FileSystems) != 1 || m.FileSystems[0].Name != "ffs" || m.FileSystems[0].Count != 7 || !m.MountedOn("ffs", "client03") || m.MountedOn("ffs", "client09") {
		t.Errorf("%+v", m)
	}
	m, err = ParseMmlsmount(samples.Read(t, "gpfs/mmlsmount-all-L-6-nodes-remote-cluster-ibmcloud.txt"))
	if err != nil {
		t.Fatal(err)
	}
	n := m.FileSystems[0].Nodes[3]
	if n.Address != "10.241.0.5" || n.Node != "storage-scale-compute-3.compscale" || n.Cluster != "storage-scale.compute" || !slices.Equal(m.On("storage-scale-storage-1.strgscale"), []string{"fs1"}) {
		t.Errorf("%+v", m.FileSystems[0].Nodes)
	}
}

func TestMmlsmountForms(t *testing.T) {
	m, err := ParseMmlsmount([]byte("File system gpfs0 is mounted on 1 nodes:\n  10.10.1.11      gpfs01\nFile system scratch is not mounted.\n"))
	if err != nil || len(m.FileSystems) != 2 || m.FileSystems[1].Count != 0 || len(m.On("gpfs01")) != 1 {
		t.Fatalf("%+v %v", m, err)
	}
	for in, reason := range map[string]string{
		"File system gpfs0 is mounted on 3 nodes:\n  10.0.0.1 a\n": "the header says 3 nodes, 1 are listed",
		"  10.0.0.1 a\n": "under a 'File system' line",
		"File system gpfs0 is mounted on many nodes:\n": "expected a node count",
		"File system gpfs0 is busy\n":                   "expected 'is mounted on N nodes:'",
	} {
		_, err := ParseMmlsmount([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || !strings.Contains(pe.Reason, reason) {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func FuzzMmlsnsd(f *testing.F) {
	fuzzParse(f, ParseMmlsnsd, " File system Disk name NSD servers\n (free disk) x a,b\n")
}

func FuzzMmlsmount(f *testing.F) {
	fuzzParse(f, ParseMmlsmount, "File system f is mounted on 1 nodes:\n 1.2.3.4 n c\n")
}

// The tools' own empty forms are results marked empty; nothing printed,
// and a second copy, are errors.
func TestMmlsnsdMmlsmountEmptyAndTwice(t *testing.T) {
	n, err := ParseMmlsnsd([]byte("mmlsnsd: No disks were found.\n"))
	if err != nil || !n.Empty || len(n.Disks) != 0 {
		t.Errorf("no disks: %+v, %v", n, err)
	}
	m, err := ParseMmlsmount([]byte("mmlsmount: No file systems were found.\n"))
	if err != nil || !m.Empty || len(m.FileSystems) != 0 {
		t.Errorf("no file systems: %+v, %v", m, err)
	}
	for _, in := range []string{"", "\n\n"} {
		if _, err := ParseMmlsnsd([]byte(in)); err == nil {
			t.Errorf("mmlsnsd %q: no error", in)
		}
		if _, err := ParseMmlsmount([]byte(in)); err == nil {
			t.Errorf("mmlsmount %q: no error", in)
		}
	}
	nsd := samples.Read(t, "gpfs/mmlsnsd-a-1-server-6-nsds-ibmcloud.txt")
	_, err = ParseMmlsnsd(append(append([]byte{}, nsd...), nsd...))
	if err == nil || !strings.Contains(err.Error(), "two outputs run together") {
		t.Errorf("mmlsnsd twice: %v", err)
	}
	mnt := samples.Read(t, "gpfs/mmlsmount-all-L-7-nodes-2017.txt")
	_, err = ParseMmlsmount(append(append([]byte{}, mnt...), mnt...))
	if err == nil || !strings.Contains(err.Error(), "file system ffs again") {
		t.Errorf("mmlsmount twice: %v", err)
	}
}

// mmlsconfig and mmdiag --config refuse prose, a second copy and nothing
// printed; an acronym-led attribute is an attribute.
func TestConfigRefusals(t *testing.T) {
	if c, err := ParseMmlsconfig([]byte("FIPS1402mode no\npagepool 4G\n")); err != nil || len(c.Entries) != 2 {
		t.Errorf("attributes: %+v, %v", c, err)
	}
	for in, want := range map[string]string{
		"":                              "nothing printed",
		"Welcome to the cluster.\n":     "expected 'attribute value'",
		"pagepool 4G\npagepool 8G\n":    "pagepool again for the same nodes (first on line 1)",
		"[root@gpfs01 ~]# mmlsconfig\n": "shell prompt",
	} {
		if _, err := ParseMmlsconfig([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("mmlsconfig %q: %v, want %q", in, err, want)
		}
	}
	for in, want := range map[string]string{
		"":                     "no \"=== mmdiag: config ===\" banner",
		"! verbsRdma enable\n": "text before the \"=== mmdiag: config ===\" banner",
		"=== mmdiag: config ===\n  pagepool 1\n=== mmdiag: config ===\n": "a second banner (the first is on line 1)",
		"=== mmdiag: config ===\n  pagepool 1\n! pagepool 2\n":           "pagepool again (first on line 2)",
		"=== mmdiag: network ===\n":                                      "another mmdiag section",
	} {
		if _, err := ParseMmdiagConfig([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("mmdiag --config %q: %v, want %q", in, err, want)
		}
	}
}
