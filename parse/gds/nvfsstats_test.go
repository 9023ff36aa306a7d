package gds

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

const sNvfs = "gds/nvidia-fs-stats-1.14-io-stats-disabled.txt"

// The real sample has IO stats disabled (the module default): Reads
// carries only error counters, so no byte count can be read from it.
func TestNvfsStatsSampleDisabled(t *testing.T) {
	s, err := ParseNvfsStats(samples.Strip(samples.Read(t, sNvfs)))
	if err != nil {
		t.Fatal(err)
	}
	if s.GDSVersion != "1.14.0.31" || s.StatsVersion != "4.0" || s.DriverVersion != "2.25.7" || s.PeerDirect == nil || !*s.PeerDirect ||
		s.IOStats || s.PeerIOStats || s.Logging != "info" || s.ShadowBufferMiB != 0 || s.ActiveProcess != 0 {
		t.Errorf("header %+v", s)
	}
	if s.Counters["Mmap"]["n"] != 1 || s.Counters["Bar1-map"]["ok"] != 1 || s.Counters["Reads"]["err"] != 0 || len(s.Counters["Reads"]) != 2 ||
		s.Counters["Sparse Reads"]["holes"] != 0 || s.Counters["Ops"]["BatchIO"] != 0 {
		t.Errorf("counters %v", s.Counters)
	}
	if len(s.GPUs) != 1 || s.GPUs[0].PCI != "0000:01:00.0" || s.GPUs[0].UUID != "fb1e6550-2a78-d767-1f0d-7512eb8c552d" || s.GPUs[0].MaxPinnedMiB != 1 {
		t.Errorf("gpus %+v", s.GPUs)
	}
	if _, _, ok := s.ReadMiB(); ok {
		t.Error("ReadMiB must not claim a count with IO stats disabled")
	}
}

// enabled is the layout nvfs-stat.c prints with rw_stats_enabled=1 (TABs
// between name and colon, a second Reads line with bandwidth): no captured
// output of it was found, so this is the source's format, not a sample.
const enabled = "GDS Version: 1.16.0.49 \nNVFS statistics(ver: 4.0)\nNVFS Driver(version: 2.27.3)\nMellanox PeerDirect Supported: True\n" +
	"IO stats: Enabled, peer IO stats: Enabled\nLogging level: info\n\nActive Shadow-Buffer (MiB): 0\nActive Process: 1\n" +
	"Batches\t\t\t\t: n=0 ok=0 err=0 Avg-Submit-Latency(usec)=0\n" +
	"Reads\t\t\t\t: n=4096 ok=4096 err=0 readMiB=4096 io_state_err=0\n" +
	"Reads\t\t\t\t: Bandwidth(MiB/s)=13224 Avg-Latency(usec)=594\n" +
	"Sparse Reads\t\t        : n=0 io=0 holes=0 pages=0 \n" +
	"Writes\t\t\t\t: n=0 ok=0 err=0 writeMiB=0 io_state_err=0 pg-cache=0 pg-cache-fail=0 pg-cache-eio=0\n" +
	"Writes\t\t\t\t: Bandwidth(MiB/s)=0 Avg-Latency(usec)=0\n" +
	"Mmap\t\t\t\t: n=1 ok=1 err=0 munmap=0\n" +
	"Bar1-map\t\t\t: n=1 ok=1 err=0 free=0 callbacks=0 active=1 delay-frees=0\n" +
	"Error\t\t\t\t: cpu-gpu-pages=0 sg-ext=0 dma-map=0 dma-ref=0\n" +
	"Ops\t\t\t\t: Read=0 Write=0 BatchIO=0\n" +
	"GPU 0000:1b:00.0 uuid:4c2c6b1c-27ac-8bed-8e88-9e59a5e348b5 : Registered_MiB=1 Cache_MiB=0 max_pinned_MiB=1 cross_root_port(%)=0\n"

func TestNvfsStatsEnabled(t *testing.T) {
	s, err := ParseNvfsStats([]byte(enabled))
	if err != nil {
		t.Fatal(err)
	}
	mib, n, ok := s.ReadMiB()
	if !ok || mib != 4096 || n != 4096 || s.Counters["Reads"]["Bandwidth(MiB/s)"] != 13224 || s.Counters["Batches"]["Avg-Submit-Latency(usec)"] != 0 {
		t.Errorf("reads %d %d %v %v", mib, n, ok, s.Counters["Reads"])
	}
	if len(s.GPUs) != 1 || s.GPUs[0].CrossRootPortPct == nil || s.GPUs[0].RegisteredMiB != 1 {
		t.Errorf("gpu %+v", s.GPUs)
	}
	// The older MB spelling of the NVIDIA troubleshooting guide.
	old := strings.NewReplacer("(MiB)", "(MB)", "_MiB=", "_MB=").Replace(enabled)
	if s, err := ParseNvfsStats([]byte(old)); err != nil || s.GPUs[0].MaxPinnedMiB != 1 {
		t.Errorf("MB spelling: %v %+v", err, s)
	}
}

// Output that is not nvidia-fs's names the line it could not read.
func TestNvfsStatsUnexpected(t *testing.T) {
	for name, in := range map[string]string{
		"gdscheck":              string(toolOutput(t, "gds/gdscheck-p-1.16-nvidia-doc-sample-nvfs-dmabuf-compat.txt")),
		"bad value":             strings.Replace(enabled, "readMiB=4096", "readMiB=lots", 1),
		"stray":                 enabled + "something else\n",
		"empty":                 "",
		"no file":               "cat: /proc/driver/nvidia-fs/stats: No such file or directory\n",
		"blank":                 "\n \n",
		"twice":                 enabled + enabled,
		"twice, no GDS Version": strings.Join(strings.SplitAfter(enabled, "\n")[1:], "") + enabled,
	} {
		_, err := ParseNvfsStats([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "nvidia-fs stats" || pe.Reason == "" {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
