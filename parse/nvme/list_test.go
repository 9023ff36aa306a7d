package nvme

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/internal/testkit/samples"
)

func TestListText2xGeneric(t *testing.T) {
	l, err := ParseList(samples.Read(t, "nvme-cli/connect-all-and-list-2.x-ceph-nvmeof-issue506.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Device{
		{DevicePath: "/dev/nvme3n2", GenericPath: "/dev/ng3n2", Serial: "2", Model: "Ceph bdev Controller", Namespace: 2,
			Usage: "10.74  GB /  10.74  GB", UsedBytes: 10_740_000_000, SizeBytes: 10_740_000_000,
			Format: "512   B +  0 B", SectorSize: 512, Firmware: "23.01.1"},
		{DevicePath: "/dev/nvme3n1", GenericPath: "/dev/ng3n1", Serial: "2", Model: "Ceph bdev Controller", Namespace: 1,
			Usage: "10.74  GB /  10.74  GB", UsedBytes: 10_740_000_000, SizeBytes: 10_740_000_000,
			Format: "512   B +  0 B", SectorSize: 512, Firmware: "23.01.1"},
	}
	if diff := cmp.Diff(want, l.Devices); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestListText1x(t *testing.T) {
	l, err := ParseList(samples.Read(t, "nvme-cli/discover-connect-list-disconnect-rdma-spdk-1.x.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Device{{DevicePath: "/dev/nvme1n1", Serial: "SPDK00000000000001", Model: "SPDK bdev Controller", Namespace: 1,
		Usage: "10.74  GB /  10.74  GB", UsedBytes: 10_740_000_000, SizeBytes: 10_740_000_000,
		Format: "512   B +  0 B", SectorSize: 512, Firmware: "19.04"}}
	if diff := cmp.Diff(want, l.Devices); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestListVerbose2019(t *testing.T) {
	l, err := ParseList(samples.Read(t, "nvme-cli/list-and-list-v-2019-pcie-and-loop-commitmsg.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Devices) != 7 || len(l.Subsystems) != 6 || len(l.Controllers) != 7 {
		t.Fatalf("%d devices, %d subsystems, %d controllers", len(l.Devices), len(l.Subsystems), len(l.Controllers))
	}
	d := l.Devices[2]
	if d.DevicePath != "/dev/nvme2n1" || d.SectorSize != 4096 || d.SizeBytes != 400_090_000_000 || d.Model != "INTEL SSDPE2MD400G4" ||
		d.Subsystem != "nvme-subsys2" || d.Transport != "pcie" || d.Address != "0000:5e:00.0" || !cmp.Equal(d.Controllers, []string{"nvme0"}) ||
		d.SubsystemNQN != "nqn.2014.08.org.nvmexpress:80868086CVFT50850022400GGN  INTEL SSDPE2MD400G4" {
		t.Errorf("device 2 = %+v", d)
	}
	loop := l.Devices[4]
	if loop.DevicePath != "/dev/nvme4n1" || loop.Transport != "loop" || loop.Subsystem != "nvme-subsys4" ||
		!cmp.Equal(loop.Controllers, []string{"nvme4", "nvme5"}) || loop.SubsystemNQN != "keith-loopback-testnqn" {
		t.Errorf("loop device = %+v", loop)
	}
	if s := l.Subsystems[4]; s.NQN != "keith-loopback-testnqn" || !cmp.Equal(s.Controllers, []string{"nvme4", "nvme5"}) {
		t.Errorf("subsystem 4 = %+v", s)
	}
	if c := l.Controllers[6]; c.Name != "nvme6" || c.Address != "10001:01:00.0" || c.Firmware != "E40A0208" ||
		!cmp.Equal(c.Namespaces, []string{"nvme5n1"}) {
		t.Errorf("controller 6 = %+v", c)
	}
	if c := l.Controllers[4]; c.Transport != "loop" || c.Address != "" || c.Subsystem != "nvme-subsys4" {
		t.Errorf("loop controller = %+v", c)
	}
}

func TestListVerbose2xOverflowingAddress(t *testing.T) {
	l, err := ParseList(samples.Read(t, "nvme-cli/list-v-tcp-2.x-mikrotik-and-list-ns-error.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Devices) != 2 || len(l.Controllers) != 2 {
		t.Fatalf("got %+v", l)
	}
	c := l.Controllers[1]
	want := ListController{Name: "nvme1", Cntlid: "1", Serial: "f132ac7914cdb3dc", Model: "Linux", Firmware: "5.6.3",
		Transport: "tcp", Address: "traddr=172.16.100.125,trsvcid=4420,src_addr=172.16.100.113",
		Subsystem: "nvme-subsys1", Namespaces: []string{"nvme1n1"}}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("controller (-want +got):\n%s", diff)
	}
	d := l.Devices[1]
	if d.DevicePath != "/dev/nvme1n1" || d.GenericPath != "/dev/ng1n1" || d.SizeBytes != 1_100_000_000_000 ||
		d.Transport != "tcp" || d.SubsystemNQN != "nqn.2026-09.com.mikrotik:rds2216.vm-storage-001" || d.Firmware != "5.6.3" {
		t.Errorf("device 1 = %+v", d)
	}
	if d := l.Devices[0]; d.Serial != "PHMB751300WU480DGN" || d.Transport != "pcie" || d.Address != "0000:41:00.0" {
		t.Errorf("device 0 = %+v", d)
	}
	// The same two devices from the plain list of the combined sample.
	l2, err := ParseList(samples.Read(t, "nvme-cli/connect-list-listsubsys-tcp-2.x-mikrotik.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if len(l2.Devices) != 2 || l2.Devices[1].Model != "Linux" || l2.Devices[0].Model != "INTEL SSDPED1D480GA" || l2.Devices[0].UsedBytes != 480_100_000_000 {
		t.Errorf("plain list = %+v", l2.Devices)
	}
}

func TestListJSON1x(t *testing.T) {
	var b strings.Builder // every line of this sample carries a "# " shell comment prefix
	for _, line := range strings.Split(string(samples.Read(t, "nvme-cli/list-json-1.x-aws-ec2-commented.txt")), "\n") {
		b.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "#"), " ") + "\n")
	}
	l, err := ParseList([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	want := Device{DevicePath: "/dev/nvme1n1", Serial: "vol0222cf21e3b3dfbc4", Model: "Amazon Elastic Block Store",
		SizeBytes: 8589934592, SectorSize: 512, Firmware: "1.0", MaximumLBA: 16777216, ProductName: "Unknown Device"}
	if len(l.Devices) != 2 {
		t.Fatalf("got %d devices", len(l.Devices))
	}
	if diff := cmp.Diff(want, l.Devices[1]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	// stderr lines before the JSON are skipped.
	l, err = ParseList(samples.Read(t, "nvme-cli/list-json-1.x-fabrics-sysfs-errors-mailinglist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if d := l.Devices[0]; len(l.Devices) != 1 || d.Namespace != 1 || d.UsedBytes != 268435456000 || d.ProductName != "NULL" || d.Firmware != "4.18.0-1" {
		t.Errorf("got %+v", l.Devices)
	}

	l, err = ParseList([]byte(`{"Devices":[{"DevicePath":"/dev/nvme0n1","MaximiumLBA":42,"NameSpace":1}]}`))
	if err != nil || l.Devices[0].MaximumLBA != 42 {
		t.Errorf("misspelt MaximiumLBA: %+v %v", l, err)
	}
}

func TestListJSON2x(t *testing.T) {
	el := samples.Read(t, "nvme-cli/list-json-2.x-device-element-vastdata-PARTIAL.txt")
	l, err := ParseList([]byte(`{"Devices":[` + string(el) + `]}`)) // PARTIAL: the author dropped the wrapper
	if err != nil {
		t.Fatal(err)
	}
	want := Device{DevicePath: "/dev/nvme1n1", GenericPath: "/dev/ng1n1", Serial: "VastData", Model: "VastData",
		Namespace: 2, SizeBytes: 10737418240, SectorSize: 512, Firmware: "24.05", MaximumLBA: 20971520}
	if diff := cmp.Diff([]Device{want}, l.Devices); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// The bare element is not "nvme list" output.
	_, err = ParseList(el)
	wantParseError(t, err, "nvme list", 0, "no device table found")
}

func TestListJSON2xVerbose(t *testing.T) {
	// Shape of nvme-cli 2.x json_detail_list (no sample was found; keys
	// taken from nvme-cli's nvme-print-json.c).
	in := `{"Devices":[{"HostNQN":"nqn.host","HostID":"h","Subsystems":[{"Subsystem":"nvme-subsys1",
	"SubsystemNQN":"nqn.target","Controllers":[{"Controller":"nvme1","SerialNumber":"S1","ModelNumber":"Linux",
	"Firmware":"6.1","Transport":"rdma","Address":"traddr=10.0.0.1,trsvcid=4420","Slot":"",
	"Namespaces":[],"Paths":[{"Path":"nvme1c1n1","ANAState":"optimized"}]}],
	"Namespaces":[{"NameSpace":"nvme1n1","Generic":"ng1n1","NSID":1,"UsedBytes":4096,"MaximumLBA":8,"PhysicalSize":4096,"SectorSize":512}]}]}]}`
	l, err := ParseList([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	d := l.Devices[0]
	if len(l.Devices) != 1 || d.DevicePath != "/dev/nvme1n1" || d.GenericPath != "/dev/ng1n1" || d.SubsystemNQN != "nqn.target" ||
		d.Transport != "rdma" || d.Serial != "S1" || !cmp.Equal(d.Controllers, []string{"nvme1"}) {
		t.Errorf("got %+v", d)
	}
}

func TestListErrors(t *testing.T) {
	_, err := ParseList(section(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt", "$ nvme list -o json", "[exit status"))
	wantParseError(t, err, "nvme list", 1, "nvme driver not loaded")

	bad := "Node             SN     Model  Namespace Usage                      Format           FW Rev\n" +
		"---------------- ------ ------ --------- -------------------------- ---------------- --------\n" +
		"/dev/nvme0n1     S      M      1         lots                       512   B +  0 B   1\n"
	_, err = ParseList([]byte(bad))
	wantParseError(t, err, "nvme list", 3, `usage "lots"`)

	_, err = ParseList([]byte(strings.Replace(bad, "1         lots                    ", "x         1 GB / 2 GB             ", 1)))
	wantParseError(t, err, "nvme list", 3, `namespace id "x"`)

	_, err = ParseList([]byte(`{"Devices":[{"Firmware":"1"}]}`))
	wantParseError(t, err, "nvme list", 0, "has no DevicePath")

	l, err := ParseList(nil)
	if err != nil || len(l.Devices) != 0 {
		t.Errorf("empty output = %+v, %v", l, err)
	}
}
