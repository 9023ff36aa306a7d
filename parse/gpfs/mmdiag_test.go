package gpfs

import (
	"testing"
)

func TestMmdiagConfigYSample(t *testing.T) {
	d, err := ParseMmdiagConfigY(only(t, "gpfs/mmdiag-config-Y-changed-column.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Attrs) != 4 {
		t.Fatalf("%d attrs, want 4: %+v", len(d.Attrs), d.Attrs)
	}
	pp, ok := d.Get("pagepool")
	if !ok || pp.Value != "4294967296" || !pp.Changed || pp.ChangedHow != "static" {
		t.Errorf("pagepool = %+v", pp)
	}
	pct, _ := d.Get("pagepoolMaxPhysMemPct")
	if pct.Value != "75" || pct.Changed {
		t.Errorf("pagepoolMaxPhysMemPct = %+v", pct)
	}
	// The fixture wraps this value onto a second line; it is joined and
	// percent-decoded.
	ssl, _ := d.Get("opensslLibName")
	want := "/usr/lib64/libssl.so.10:/usr/lib64/libssl.so.6:/usr/lib64/libssl.so.0.9.8:/lib64/libssl.so.6:libssl.so:libssl.so.0:libssl.so.4:/lib64/libssl.so.1.0.0"
	if ssl.Value != want || ssl.Changed {
		t.Errorf("opensslLibName = %+v", ssl)
	}
	if _, ok := d.Get("parallelMetadataWrite"); !ok {
		t.Error("parallelMetadataWrite missing")
	}
}

func TestMmdiagConfigText(t *testing.T) {
	in := "\n=== mmdiag: config ===\n  allowDeleteAclOnChmod 1\n! pagepool 17179869184\n! verbsPorts mlx5_0/1 mlx5_1/1\n! verbsRdma enable\n  verbsRdmaSend 0\n  tscPrimary (undefined)\n"
	d, err := ParseMmdiagConfig([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Attrs) != 6 {
		t.Fatalf("attrs = %+v", d.Attrs)
	}
	for _, tc := range []struct {
		name, value string
		changed     bool
	}{
		{"allowDeleteAclOnChmod", "1", false},
		{"pagepool", "17179869184", true},
		{"VERBSPORTS", "mlx5_0/1 mlx5_1/1", true},
		{"verbsRdma", "enable", true},
		{"verbsRdmaSend", "0", false},
		{"tscPrimary", "(undefined)", false},
	} {
		a, ok := d.Get(tc.name)
		if !ok || a.Value != tc.value || a.Changed != tc.changed {
			t.Errorf("%s = %+v, %v", tc.name, a, ok)
		}
	}
}

func TestMmdiagConfigErrors(t *testing.T) {
	_, err := ParseMmdiagConfig([]byte("=== mmdiag: config ===\n! pagepool 1G\nmmdiag: daemon is not running\n"))
	wantParseError(t, err, "mmdiag --config", 3)
	_, err = ParseMmdiagConfigY([]byte("mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\nmmdiag:config:0:1\n"))
	wantParseError(t, err, "mmdiag --config -Y", 2)
	_, err = ParseMmdiagConfigY([]byte("mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\nmmdiag:config:0:1::::1G::\n"))
	wantParseError(t, err, "mmdiag --config -Y", 2)
}

func TestMmdiagNetworkSample(t *testing.T) {
	d, err := ParseMmdiagNetwork(segmentOf(t, "gpfs/mmdiag-network-mrot-tcp-compute-cluster.txt", "mmdiag --network", 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Pending) != 0 {
		t.Errorf("pending = %q", d.Pending)
	}
	if d.Config["tscConnMode"] != "mrot" || d.Config["my address"] != "10.241.1.22/24 (eth1) <c0n0>" || d.Config["my node number"] != "1" {
		t.Errorf("config = %q", d.Config)
	}
	if len(d.TCP) != 14 {
		t.Fatalf("%d TCP rows, want 14", len(d.TCP))
	}
	c := d.TCP[6]
	if c.Hostname != "scale-cluster-storage-1" || c.Node != "<c1n0>" || intp(c.Idx) != 0 || c.Destination != "10.241.1.26" || c.Status != "connected" || intp(c.Err) != 0 || c.OSType != "Linux/L" {
		t.Errorf("row 7 = %+v", c)
	}
	if got := d.ConnectedTCP("10.241.1.21"); len(got) != 2 {
		t.Errorf("connections to 10.241.1.21 = %+v", got)
	}
	if len(d.RDMA) != 0 {
		t.Errorf("rdma = %v", d.RDMA)
	}
	details := d.Sections["Connection details"]
	if len(details) == 0 || details[0] != "<c0n1> 10.241.1.21/0 (scale-cluster-compute-3-sec)" {
		t.Errorf("connection details = %q", details)
	}
}

func TestMmdiagNetworkDeviceAndRDMA(t *testing.T) {
	in := `=== mmdiag: network ===

Pending messages:
  (none)
TCP Connections between nodes:
  Device ib0:
    hostname   node   destination   status     err  sock  sent(MB)  recvd(MB)  ostype
    gpfs02     <c0n1> 10.0.0.2      connected  0    20    1         1          Linux/L
RDMA Connections between nodes:
  Fabric 0 - Device mlx5_0 Port 1 Width 4x Speed EDR lid 5
    hostname   idx CM state VS buff
    gpfs02     0   N  RTS   (Y)903
`
	d, err := ParseMmdiagNetwork([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(d.TCP) != 1 || d.TCP[0].Device != "ib0" {
		t.Fatalf("tcp = %+v", d.TCP)
	}
	if len(d.RDMA) != 1 || d.RDMA[0]["state"] != "RTS" || d.RDMA[0]["device"] != "Fabric 0 - Device mlx5_0 Port 1 Width 4x Speed EDR lid 5" {
		t.Errorf("rdma = %v", d.RDMA)
	}
}

func TestMmdiagNetworkErrors(t *testing.T) {
	_, err := ParseMmdiagNetwork([]byte("=== mmdiag: network ===\nmmdiag: daemon down\n"))
	wantParseError(t, err, "mmdiag --network", 2)
	_, err = ParseMmdiagNetwork([]byte("TCP Connections between nodes:\n  gpfs02 <c0n1> 10.0.0.2 connected\n"))
	wantParseError(t, err, "mmdiag --network", 2)
	_, err = ParseMmdiagNetwork([]byte("Inter-node communication configuration:\n  tscConnMode\n"))
	wantParseError(t, err, "mmdiag --network", 2)
}
