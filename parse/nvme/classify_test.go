package nvme

import (
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
)

func TestClassifyError(t *testing.T) {
	tests := []struct {
		rel  string
		rc   int
		kind Kind
		text string
	}{
		{"nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt", 1, NoDriver, "Failed to scan topology: No such file or directory"},
		{"nvme-cli/error-connect-all-already-in-progress-commitmsg.txt", 1, AlreadyConnected, "Failed to write to /dev/nvme-fabrics: Operation already in progress"},
		{"nvme-cli/error-connect-all-invalid-argument-fc-commitmsg.txt", 1, InvalidArgument, "Failed to write to /dev/nvme-fabrics: Invalid argument"},
		{"nvme-cli/error-discover-rdma-connection-reset-segfault-commitmsg.txt", 139, ConnectionReset, "Failed to write to /dev/nvme-fabrics: Connection reset by peer"},
		{"nvme-cli/error-discover-tcp-failed-to-read-nvme-fabrics-commitmsg.txt", 1, FabricsRead, "Failed to read from /dev/nvme-fabrics: Invalid argument"},
		{"nvme-cli/list-v-tcp-2.x-mikrotik-and-list-ns-error.txt", 1, NVMeStatus, "NVMe status: Invalid Field in Command: A reserved coded value or an unsupported value in a defined field(0x6002)"},
	}
	for _, tt := range tests {
		f := ClassifyError(string(samples.Read(t, tt.rel)), tt.rc)
		if f == nil || f.Kind != tt.kind || f.Text != tt.text || f.ExitCode != tt.rc || f.Line == 0 {
			t.Errorf("%s: got %+v, want kind %s text %q", tt.rel, f, tt.kind, tt.text)
		}
	}
	more := []struct {
		stderr string
		rc     int
		kind   Kind
	}{
		{"Failed to write to /dev/nvme-fabrics: Connection refused\n", 1, ConnectionRefused},
		{"Failed to open /dev/nvme-fabrics: No such file or directory\n", 1, NoFabrics},
		{"traddr=10.0.0.1 is already connected\n", 1, AlreadyConnected},
		{"already connected\n", 0, AlreadyConnected},
		{"Failed to write to /dev/nvme-fabrics: Connection timed out\n", 1, Timeout},
		{"Failed to write to /dev/nvme-fabrics: No route to host\n", 1, Unreachable},
		{"Failed to open /dev/nvme-fabrics: Permission denied\n", 1, PermissionDenied},
		{"\nsomething odd\n", 2, Unknown},
	}
	for _, tt := range more {
		f := ClassifyError(tt.stderr, tt.rc)
		if f == nil || f.Kind != tt.kind {
			t.Errorf("%q: got %+v, want %s", tt.stderr, f, tt.kind)
		}
	}
	if f := ClassifyError("", 0); f != nil {
		t.Errorf("success classified as %+v", f)
	}
	if f := ClassifyError("\nsomething odd\n", 2); f.Line != 2 || f.Text != "something odd" || f.Error() != "nvme: nvme-cli failed: something odd" {
		t.Errorf("unknown failure %+v %q", f, f.Error())
	}
}
