package benchfanout_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/provadev/prova/bench/fanout"
	"github.com/provadev/prova/internal/cli"
)

// BenchmarkApplyInProcess runs prova apply of the fan-out workload inside
// the test binary, so that -cpuprofile and -memprofile profile prova
// itself (BenchmarkFanout measures it as a separate process). Hosts:
// BENCHFANOUT_HOSTS, default 10, 50, 200.
//
//	go test -run '^$' -bench ApplyInProcess/hosts=200 -benchtime 3x \
//	    -cpuprofile cpu.out ./bench/fanout
func BenchmarkApplyInProcess(b *testing.B) {
	if !haveSSHD() {
		b.Skip("sshd not installed")
	}
	sizes, err := parseSizes(os.Getenv("BENCHFANOUT_HOSTS"))
	if err != nil {
		b.Fatal(err)
	}
	lab := benchfanout.StartLab(b)
	for _, n := range sizes {
		w := workload(b, lab, n)
		b.Run("hosts="+strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var stderr bytes.Buffer
				args := []string{"apply", w.Runbook, "-i", w.Inventory, "--forks", strconv.Itoa(n),
					"--ssh-config", "none", "--record-dir", filepath.Join(w.Dir, "records")}
				if rc := cli.Main(args, bytes.NewReader(nil), io.Discard, &stderr); rc != 0 {
					b.Fatalf("prova apply: exit %d: %s", rc, stderr.String())
				}
			}
		})
	}
}
