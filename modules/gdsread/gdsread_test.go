package gdsread

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

// statsText is nvidia-fs's stats with IO stats on (nvfs-stat.c's layout)
// after readMiB MiB in reads reads.
func statsText(readMiB, reads int) string {
	return fmt.Sprintf("GDS Version: 1.16.0.49 \nNVFS statistics(ver: 4.0)\nNVFS Driver(version: 2.27.0)\nMellanox PeerDirect Supported: True\n"+
		"IO stats: Enabled, peer IO stats: Disabled\nLogging level: info\n\nActive Shadow-Buffer (MiB): 0\nActive Process: 0\n"+
		"Reads\t\t\t\t: n=%d ok=%d err=0 readMiB=%d io_state_err=0\nReads\t\t\t\t: Bandwidth(MiB/s)=0 Avg-Latency(usec)=0\n"+
		"Mmap\t\t\t\t: n=1 ok=1 err=0 munmap=1\n", reads, reads, readMiB)
}

const line = "IoType: READ XferType: GPUD Threads: 1 DataSetSize: 65536/65536(KiB) IOSize: 1024(KiB) Throughput: 84.000000 GiB/sec, Avg_Latency: 11.600000 usecs ops: 64 total_time 0.000744 secs\n"

const gdsioCmd = `^/usr/local/cuda/gds/tools/gdsio -f /gpfs/fs0/gds/64M\.bin -d 0 -w 1 -s 64M -i 1M -x 0 -I 0$`

// host answers the stats file with before, then after (the read happens
// in between), and gdsio with out.
func host(before, after string, out moduletest.Reply) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) {
		n := 0
		h.Handle(`^cat -- /proc/driver/nvidia-fs/stats$`, func(string, []byte) moduletest.Reply {
			n++
			s := before
			if n > 1 {
				s = after
			}
			if s == "" {
				return moduletest.Reply{RC: 1, Stderr: "cat: /proc/driver/nvidia-fs/stats: No such file or directory\n"}
			}
			return moduletest.Reply{Stdout: s}
		})
		h.Reply(gdsioCmd, out)
	}
}

const body = `file = "/gpfs/fs0/gds/64M.bin"`

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "gpu_direct", Body: body, Setup: host(statsText(0, 0), statsText(64, 64), moduletest.Reply{Stdout: line})},
	}, `^cat -- /proc/driver/nvidia-fs/stats$`, gdsioCmd))
}

func decode(t *testing.T, src string) cty.Value {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "step.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	v, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return v
}

func run(t *testing.T, setup func(*moduletest.FakeHost)) (module.ApplyResponse, map[string]cty.Value) {
	t.Helper()
	h := moduletest.NewFakeHost("gds01")
	setup(h)
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
	if err != nil {
		t.Fatal(err)
	}
	return resp, resp.Outputs.AsValueMap()
}

// Issue 19.5: the counters before and after a short read are the evidence;
// gdsio says GPUD in both cases.
func TestModes(t *testing.T) {
	disabled := string(samples.Strip(samples.Read(t, "gds/nvidia-fs-stats-1.14-io-stats-disabled.txt")))
	for _, c := range []struct {
		name, before, after string
		out                 moduletest.Reply
		mode, why           string
	}{
		{"gpu direct", statsText(100, 10), statsText(164, 74), moduletest.Reply{Stdout: line}, "gpu_direct", "nvidia-fs counted 64 of the 64 MiB read (64 reads into GPU memory)"},
		{"compat", statsText(100, 10), statsText(100, 10), moduletest.Reply{Stdout: line}, "compat", "counted 0 of the 64 MiB read: compatibility mode, through host memory"},
		{"part", statsText(0, 0), statsText(32, 32), moduletest.Reply{Stdout: line}, "compat", "counted 32 of the 64 MiB"},
		{"io stats off", disabled, disabled, moduletest.Reply{Stdout: line}, "unknown", "IO stats are disabled"},
		{"no nvidia_fs", "", "", moduletest.Reply{Stdout: line}, "unknown", "nvidia_fs is not loaded"},
		{"reset", statsText(100, 10), statsText(0, 0), moduletest.Reply{Stdout: line}, "unknown", "reset while reading"},
		{"gdsio fails", statsText(0, 0), statsText(0, 0), moduletest.Reply{RC: 1, Stderr: "Error: IO failed stopping traffic, fd :3 ret:-5 errno:5\n"}, "failed", "gdsio failed on gds01 (status 1): Error: IO failed"},
	} {
		resp, o := run(t, host(c.before, c.after, c.out))
		if got := o["mode"].AsString(); got != c.mode || !strings.Contains(resp.Message, c.why) {
			t.Errorf("%s: mode %s %q, want %s %q", c.name, got, resp.Message, c.mode, c.why)
		}
		if c.mode == "gpu_direct" && (resp.Evidence["/proc/driver/nvidia-fs/stats (before)"] == "" || resp.Evidence["gdsio"] != line || o["xfer_type"].AsString() != "GPUD") {
			t.Errorf("%s: evidence %v", c.name, resp.Evidence)
		}
	}
}

// Output that is not gdsio's or nvidia-fs's is an error naming host and tool.
func TestUnexpected(t *testing.T) {
	for name, setup := range map[string]func(*moduletest.FakeHost){
		"gdsio":   host(statsText(0, 0), statsText(0, 0), moduletest.Reply{Stdout: "IoType: READ something else\n"}),
		"stats":   host("garbage\n", "garbage\n", moduletest.Reply{Stdout: line}),
		"no line": host(statsText(0, 0), statsText(0, 0), moduletest.Reply{Stdout: "\n"}),
	} {
		h := moduletest.NewFakeHost("gds01")
		setup(h)
		_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: decode(t, body)})
		if err == nil || !strings.Contains(err.Error(), "gds01") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
