package benchfanout_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/provadev/prova/bench/fanout"
	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/testkit/sshdtest"
)

// BenchmarkApplyInProcess runs prova apply of the fan-out workload inside
// the test binary, so that -cpuprofile and -memprofile profile prova
// itself (BenchmarkFanout measures it as a separate process). Hosts:
// BENCHFANOUT_HOSTS, default 10, 50, 200.
//
//	go test -run '^$' -bench ApplyInProcess/hosts=200 -benchtime 3x \
//	    -cpuprofile cpu.out ./bench/fanout
func BenchmarkApplyInProcess(b *testing.B) {
	lab, sizes, steps := inProcessLab(b)
	for _, n := range sizes {
		for _, s := range steps {
			w := workloadSteps(b, lab, n, s)
			b.Run(inProcessName(n, s), func(b *testing.B) {
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
}

// BenchmarkFloorInProcess runs the floor (sshdtest.Floor: one x/crypto/ssh
// connection per host, the commands back to back) on the same workload
// inside the test binary, for a differential profile against
// BenchmarkApplyInProcess (go tool pprof -diff_base floor.out prova.out).
// Hosts: BENCHFANOUT_HOSTS, default 10, 50, 200.
func BenchmarkFloorInProcess(b *testing.B) {
	lab, sizes, steps := inProcessLab(b)
	pem, err := os.ReadFile(lab.KeyFile)
	if err != nil {
		b.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range sizes {
		for _, s := range steps {
			w := workloadSteps(b, lab, n, s)
			cmds := slices.Repeat([]string{benchfanout.RemoteCommand}, s)
			b.Run(inProcessName(n, s), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					// The known_hosts file is read per run, as the floor's
					// process reads it.
					hk, err := knownhosts.New(lab.KnownHosts)
					if err != nil {
						b.Fatal(err)
					}
					cfg := &ssh.ClientConfig{User: lab.User, Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
						HostKeyCallback: hk, Timeout: 30 * time.Second}
					if err := sshdtest.Floor(b.Context(), w.Addrs(), cfg, cmds); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// inProcessLab skips without sshd, reads BENCHFANOUT_HOSTS (default 10,
// 50, 200) and BENCHFANOUT_STEPS (default 10) and starts the lab the
// in-process benchmarks share.
func inProcessLab(b *testing.B) (*benchfanout.Lab, []int, []int) {
	b.Helper()
	if !haveSSHD() {
		b.Skip("sshd not installed")
	}
	sizes, err := parseSizes(os.Getenv("BENCHFANOUT_HOSTS"))
	if err != nil {
		b.Fatal(err)
	}
	steps, err := benchfanout.ParseSteps(os.Getenv("BENCHFANOUT_STEPS"))
	if err != nil {
		b.Fatal(err)
	}
	return benchfanout.StartLab(b), sizes, steps
}

// inProcessName is hosts=N on the default workload, hosts=N,steps=S on
// others.
func inProcessName(n, steps int) string {
	if steps == benchfanout.Steps {
		return "hosts=" + strconv.Itoa(n)
	}
	return "hosts=" + strconv.Itoa(n) + ",steps=" + strconv.Itoa(steps)
}
