package lab_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
)

// BenchmarkStart100 measures starting a 100-node lab in-process (node
// files, host keys, listeners, inventory) and one command on the last node.
// It reports the process's resident memory after the start.
func BenchmarkStart100(b *testing.B) {
	bin := labtest.Binary(b)
	for i := 0; i < b.N; i++ {
		l, err := lab.Start(context.Background(), lab.Options{Dir: b.TempDir(), Nodes: 100, Binary: bin})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		st, _ := os.ReadFile("/proc/self/status")
		for _, line := range strings.Split(string(st), "\n") {
			if strings.HasPrefix(line, "VmRSS:") {
				var kb float64
				for _, f := range strings.Fields(line)[1:2] {
					for _, c := range f {
						kb = kb*10 + float64(c-'0')
					}
				}
				b.ReportMetric(kb/1024, "MiB-RSS")
			}
		}
		if r := labtest.MustRun(b, labtest.Client(b, l, "gpfs100"), "hostname"); r.Stdout != "gpfs100\n" {
			b.Fatalf("gpfs100: %+v", r)
		}
		l.Close()
		b.StartTimer()
	}
}

// BenchmarkGPFSCommand measures one "mmfsadm test verbs conn" over SSH on
// a 48-node lab (BENCH_NODES to change) with verbsRdma started everywhere:
// the lab server's cost per simulated GPFS command (run it with
// -cpuprofile to see where it goes). Set BENCH_SHELL_ONLY=1 for the path
// through /bin/sh.
func BenchmarkGPFSCommand(b *testing.B) {
	nodes := 48
	if n, err := strconv.Atoi(os.Getenv("BENCH_NODES")); err == nil && n > 4 {
		nodes = n
	}
	l, err := lab.Start(context.Background(), lab.Options{Dir: b.TempDir(), Nodes: nodes, Scenario: "../examples/lab/gpfs-firewall.hcl",
		Binary: labtest.Binary(b), ShellOnly: os.Getenv("BENCH_SHELL_ONLY") == "1"})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	c := labtest.Client(b, l, "gpfs05")
	for _, cmd := range []string{`mmchconfig verbsRdma=enable,verbsPorts="mlx5_0/1 mlx5_1/1"`, "mmshutdown -a", "mmstartup -a"} {
		if r := labtest.MustRun(b, c, cmd); r.Status != 0 {
			b.Fatalf("%s: %+v", cmd, r)
		}
	}
	b.ResetTimer()
	for b.Loop() {
		if r := labtest.MustRun(b, c, "mmfsadm test verbs conn"); r.Status != 0 {
			b.Fatalf("%+v", r)
		}
	}
}
