package gpfs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCommandResultMmchconfig(t *testing.T) {
	for _, tc := range []struct{ rel, prefix string }{
		{"gpfs/mmchconfig-success-propagating-4.2.3.txt", "mmchconfig"},
		{"gpfs/mmchconfig-tiebreakerDisks-and-mmstartup-2023.txt", "mmchconfig tiebreakerDisks"},
	} {
		r := ParseCommandResult(segmentOf(t, tc.rel, tc.prefix, 0))
		if r.Command != "mmchconfig" || !r.Completed || !r.Propagating || !r.OK() || len(r.Messages) != 0 || len(r.Errors) != 0 {
			t.Errorf("%s: %+v", tc.rel, r)
		}
	}
}

func TestCommandResultMmstartup(t *testing.T) {
	for _, tc := range []struct {
		rel   string
		nodes int
	}{
		{"gpfs/mmchconfig-tiebreakerDisks-and-mmstartup-2023.txt", 0},
		{"gpfs/mmstartup-a-and-mmgetstate-aL-active.txt", 0},
		{"gpfs/mmstartup-a-then-mmfslog-then-mmgetstate-active-4.2.3.txt", 3},
	} {
		r := ParseCommandResult(segmentOf(t, tc.rel, "mmstartup -a", 0))
		if r.Command != "mmstartup" || !r.OK() || len(r.NodeLines) != tc.nodes {
			t.Errorf("%s: %+v", tc.rel, r)
		}
		if tc.nodes > 0 && (r.NodeLines[1].Node != "gpfs02" || r.NodeLines[1].Text != "/tmp/mmfs has been created successfully.") {
			t.Errorf("node line = %+v", r.NodeLines[1])
		}
	}
}

func TestCommandResultMmshutdown(t *testing.T) {
	ok := ParseCommandResult(only(t, "gpfs/mmshutdown-N-single-node-ok-cherub-fixture.txt"))
	if !ok.OK() || ok.Command != "mmshutdown" || len(ok.Busy) != 0 || len(ok.NodeLines) != 3 || ok.NodeLines[1].Text != "Shutting down!" {
		t.Errorf("single node ok: %+v", ok)
	}
	busy := ParseCommandResult(only(t, "gpfs/mmshutdown-N-device-busy-cherub-fixture.txt"))
	want := []string{"umount2: Device or resource busy", "umount: /gpfs/fs1: device is busy"}
	if !busy.Completed || !cmp.Equal(busy.Busy, want) || !busy.OK() {
		t.Errorf("device busy: %+v", busy)
	}
	for _, tc := range []struct {
		rel   string
		nodes []string
	}{
		{"gpfs/mmshutdown-a-2-nodes-4.2-el7.txt", []string{"gpfs-01", "gpfs-02"}},
		{"gpfs/mmshutdown-a-3-nodes-tracedev-el6.txt", []string{"c01", "c02", "c03"}},
	} {
		r := ParseCommandResult(segmentOf(t, tc.rel, "mmshutdown -a", 0))
		down := map[string]bool{}
		for _, n := range r.NodeLines {
			if n.Text == "Shutting down!" {
				down[n.Node] = true
			}
		}
		if !r.OK() || len(down) != len(tc.nodes) {
			t.Errorf("%s: %+v", tc.rel, r)
		}
		for _, n := range tc.nodes {
			if !down[n] {
				t.Errorf("%s: %s did not shut down", tc.rel, n)
			}
		}
	}
}

func TestCommandResultMmaddnodePartialFailure(t *testing.T) {
	r := ParseCommandResult(segmentOf(t, "gpfs/mmaddnode-partial-failure-unreachable-4.2.3.txt", "mmaddnode", 0))
	if r.Command != "mmaddnode" || !r.Completed || !r.Propagating {
		t.Errorf("result = %+v", r)
	}
	if r.OK() {
		t.Error("partial failure reported OK")
	}
	if !cmp.Equal(r.Unreachable, []string{"client05"}) || !cmp.Equal(r.FailedNodes, []string{"client05"}) {
		t.Errorf("unreachable %q, failed %q", r.Unreachable, r.FailedNodes)
	}
	if len(r.Warnings) != 1 || r.Warnings[0] != "Warning: Not all nodes have proper GPFS license designations. Use the mmchlicense command to designate licenses as needed." {
		t.Errorf("warnings = %q", r.Warnings)
	}
	if len(r.Messages) != 5 || r.Messages[4] != "Processing node client05" {
		t.Errorf("messages = %q", r.Messages)
	}
}

func TestCommandResultFailures(t *testing.T) {
	r := ParseCommandResult([]byte("mmchconfig: Incorrect value for verbsPorts\nmmchconfig: Command failed. Examine previous error messages to determine cause.\n"))
	if r.OK() || !r.Failed || len(r.Errors) != 2 {
		t.Errorf("failed mmchconfig: %+v", r)
	}
	r = ParseCommandResult([]byte("mmstartup: Starting GPFS ...\ngpfs03:  mmremote: Unable to determine the local node identity.\nmmstartup: The following nodes could not be reached:\n\tgpfs04\n"))
	if r.OK() || len(r.Errors) != 1 || !cmp.Equal(r.Unreachable, []string{"gpfs04"}) {
		t.Errorf("mmstartup with node errors: %+v", r)
	}
	if r := ParseCommandResult(nil); r.Completed || r.OK() {
		t.Errorf("empty output: %+v", r)
	}
}

// TestParseCommandRefuses: the strict reader behind `prova parse mmstartup`
// and the bundle refuses what is not one run of the command.
func TestParseCommandRefuses(t *testing.T) {
	one := segmentOf(t, "gpfs/mmchconfig-success-propagating-4.2.3.txt", "mmchconfig", 0)
	if r, err := ParseCommand("mmchconfig")(one); err != nil || !r.OK() {
		t.Fatalf("one run: %+v, %v", r, err)
	}
	for _, tc := range []struct {
		in   string
		line int
		want string
	}{
		{"", 0, "no output"},
		{"Welcome to gpfs01\n", 1, "not mmchconfig output"},
		{"mmstartup: Starting GPFS ...\n", 1, "not mmchconfig output"},
		{"[root@gpfs01 ~]# mmchconfig verbsRdma=enable\n" + string(one), 1, "shell prompt"},
		{string(one) + string(one), 5, "second completion message (the first is on line 1)"},
		{"mmchconfig: Command successfully comp", 1, "cut short"},
	} {
		_, err := ParseCommand("mmchconfig")([]byte(tc.in))
		pe := wantParseError(t, err, "mmchconfig", tc.line)
		if !strings.Contains(pe.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}
