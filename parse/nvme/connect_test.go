package nvme

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/internal/testkit/samples"
)

func TestConnect(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want []string
	}{
		{"2.x tls", section(t, "nvme-cli/discover-connect-tcp-tls-2.x-loopback.txt", "# nvme connect", ""), []string{"nvme1"}},
		{"2.x mikrotik", section(t, "nvme-cli/connect-list-listsubsys-tcp-2.x-mikrotik.txt", "", "Node "), []string{"nvme1"}},
		{"1.x silent", section(t, "nvme-cli/discover-connect-list-disconnect-rdma-spdk-1.x.txt", "nvme connect -t rdma", "$ sudo nvme list"), []string{}},
		{"connect-all silent", section(t, "nvme-cli/connect-all-and-list-2.x-ceph-nvmeof-issue506.txt", "nvme connect-all", "# nvme list"), []string{}},
		{"2.3 json", []byte(`{"device" : "nvme3"}`), []string{"nvme3"}},
		{"2.3 flag", []byte("device: nvme2\n"), []string{"nvme2"}},
	}
	for _, tt := range tests {
		c, err := ParseConnect(tt.in)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if !cmp.Equal(c.Devices, tt.want) {
			t.Errorf("%s: devices %v, want %v", tt.name, c.Devices, tt.want)
		}
	}
	// smartx: three silent connects in a row.
	c, err := ParseConnect(section(t, "nvme-cli/discover-connect-list-subsys-rdma-3-paths-smartx.txt", "4420 -n nqn.2020-12.com.smartx:system:sub1 -l 604800", "#"))
	if err != nil || len(c.Devices) != 0 {
		t.Fatalf("smartx: %+v %v", c, err)
	}
}

func TestConnectErrors(t *testing.T) {
	_, err := ParseConnect(section(t, "nvme-cli/error-connect-all-already-in-progress-commitmsg.txt", "connect-all", ""))
	wantParseError(t, err, "nvme connect", 1, "already connected")

	_, err = ParseConnect(section(t, "nvme-cli/error-connect-all-invalid-argument-fc-commitmsg.txt", "connect-all", "And the below"))
	wantParseError(t, err, "nvme connect", 1, "invalid or missing connect parameter")

	_, err = ParseConnect(section(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt", "$ nvme connect", "[exit status"))
	wantParseError(t, err, "nvme connect", 1, "nvme driver not loaded")

	_, err = ParseConnect([]byte("hello\n"))
	wantParseError(t, err, "nvme connect", 1, "unexpected line")

	_, err = ParseConnect([]byte(`{"error":"failed to write to nvme-fabrics device: Connection refused"}`))
	wantParseError(t, err, "nvme connect", 1, "connection refused")
}

func TestDisconnect(t *testing.T) {
	d, err := ParseDisconnect(samples.Read(t, "nvme-cli/disconnect-nqn-tcp-2.x-mikrotik.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if *d != (Disconnect{NQN: "nqn.2026-09.com.mikrotik:rds2216.vm-storage-001", Controllers: 1}) {
		t.Errorf("got %+v", d)
	}
	// 2017: success but exit status 1 - the count is what tells.
	d, err = ParseDisconnect(section(t, "nvme-cli/disconnect-nqn-1-controller-commitmsg.txt", "disconnect -n", "$ echo"))
	if err != nil || *d != (Disconnect{NQN: "testnqn", Controllers: 1}) {
		t.Errorf("got %+v %v", d, err)
	}
	d, err = ParseDisconnect([]byte("NQN:nqn.x disconnected 0 controller(s)\n"))
	if err != nil || d.Controllers != 0 || d.NQN != "nqn.x" {
		t.Errorf("zero: %+v %v", d, err)
	}
}

func TestDisconnectErrors(t *testing.T) {
	// The published excerpt cut the line after "disconnec".
	_, err := ParseDisconnect(section(t, "nvme-cli/discover-connect-list-disconnect-rdma-spdk-1.x.txt", `nvme disconnect -n`, ""))
	wantParseError(t, err, "nvme disconnect", 1, "unexpected line")

	_, err = ParseDisconnect(section(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt", "$ nvme disconnect", "[exit status"))
	wantParseError(t, err, "nvme disconnect", 1, "nvme driver not loaded")

	_, err = ParseDisconnect(nil)
	wantParseError(t, err, "nvme disconnect", 0, "empty output")

	_, err = ParseDisconnect([]byte("NQN:a disconnected 1 controller(s)\nNQN:a disconnected 1 controller(s)\n"))
	wantParseError(t, err, "nvme disconnect", 2, "second disconnect line")
}

func TestVersion(t *testing.T) {
	v, err := ParseVersion(section(t, "nvme-cli/nvme-version-2.3.txt", "", "[exit status"))
	if err != nil {
		t.Fatal(err)
	}
	if *v != (Version{Version: "2.3", Git: "2.3", Libnvme: "1.3", LibnvmeGit: "1.3", Major: 2}) {
		t.Errorf("got %+v", v)
	}
	v, err = ParseVersion([]byte("nvme version 1.16\n"))
	if err != nil || v.Major != 1 || v.Version != "1.16" || v.Libnvme != "" {
		t.Errorf("1.x: %+v %v", v, err)
	}
	_, err = ParseVersion(samples.Read(t, "nvme-cli/nvme-version-2.3.txt")) // collector's "[exit status 0]" line
	wantParseError(t, err, "nvme version", 3, "unexpected line")
	_, err = ParseVersion(samples.Read(t, "nvme-cli/nvme-help-2.3.txt"))
	wantParseError(t, err, "nvme version", 1, "unexpected line")
}
