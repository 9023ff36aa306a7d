package bench_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/parse/elbencho"
	"github.com/provadev/prova/parse/mpstat"
	pnvme "github.com/provadev/prova/parse/nvme"
	"github.com/provadev/prova/parse/perftest"
)

const (
	target = "-a 10.10.0.100 -s 4420 -n " + model.DefaultTargetNQN
	scen   = "../../../examples/lab/"
)

func startLab(t *testing.T, file string) *lab.Lab {
	if testing.Short() {
		t.Skip("starts a lab")
	}
	return labtest.Start(t, 0, scen+file)
}

// waitFile polls (with a deadline) until path exists with content
// containing want.
func waitFile(t *testing.T, path, want string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), want) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never contained %q", path, want)
}

func must(t *testing.T, c *ssh.Client, cmd string, status int) labtest.Result {
	t.Helper()
	r := labtest.MustRun(t, c, cmd)
	if r.Status != status {
		t.Fatalf("%s: status %d, want %d\n%s%s", cmd, r.Status, status, r.Stdout, r.Stderr)
	}
	return r
}

// The cycle over both transports, seen through SSH: /dev entries appear
// and go, connecting twice is refused, and a 4K read benchmark shows each
// transport's latency while a concurrent mpstat shows its CPU.
func TestLabNVMeoFCycle(t *testing.T) {
	l := startLab(t, "nvmeof-healthy.hcl")
	c := labtest.Client(t, l, "host03")
	mon := labtest.Client(t, l, "host03")
	if r := must(t, c, "ls /dev/nvme*", 0); r.Stdout != "/dev/nvme0\n/dev/nvme0n1\n" {
		t.Fatalf("local drive: %q", r.Stdout)
	}
	load := filepath.Join(l.Dir(), "nodes", "host03", "state", "load.json")
	for _, c2 := range []struct {
		tr             string
		softLo, softHi float64
	}{{"tcp", 6, 10}, {"rdma", 0.4, 1.6}} {
		r := must(t, c, "nvme discover -t "+c2.tr+" -a 10.10.0.100 -s 4420 -o json", 0)
		if d, err := pnvme.ParseDiscover([]byte(r.Stdout)); err != nil || len(d.Subsystems()) != 1 {
			t.Fatalf("discover: %v %+v", err, d)
		}
		must(t, c, "nvme connect -t "+c2.tr+" "+target, 0)
		if r := must(t, c, "ls /dev/nvme*", 0); r.Stdout != "/dev/nvme0\n/dev/nvme0n1\n/dev/nvme1\n/dev/nvme1n1\n" {
			t.Errorf("after connect: %q", r.Stdout)
		}
		if r := must(t, c, "nvme connect -t "+c2.tr+" "+target, 1); !strings.Contains(r.Stderr, "already connected") {
			t.Errorf("second connect: %q", r.Stderr)
		}
		ls, err := pnvme.ParseListSubsys([]byte(must(t, c, "nvme list-subsys -o json", 0).Stdout))
		if err != nil || strings.Join(ls.Transports(model.DefaultTargetNQN), ",") != c2.tr {
			t.Errorf("list-subsys: %v %+v", err, ls)
		}
		// Benchmark in one session, mpstat in another while it runs.
		if err := os.WriteFile(load, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var bench labtest.Result
		wg.Add(1)
		go func() {
			defer wg.Done()
			bench, _ = labtest.Run(c, "elbencho -b 4K -t 16 --iodepth 32 -r --direct --lat --timelimit 3 /dev/nvme1n1")
		}()
		waitFile(t, load, "per_cpu")
		mp := must(t, mon, "mpstat -P ALL 1 1", 0)
		wg.Wait()
		p, err := mpstat.Parse([]byte(mp.Stdout))
		if err != nil {
			t.Fatalf("mpstat: %v", err)
		}
		if s := p.Summary().All.Soft; s < c2.softLo || s > c2.softHi {
			t.Errorf("%s: mpstat %%soft %.2f during the benchmark", c2.tr, s)
		}
		res, err := elbencho.ParseConsole([]byte(bench.Stdout))
		if err != nil || bench.Status != 0 {
			t.Fatalf("elbencho: %v %+v", err, bench)
		}
		// 512 I/Os in flight: the transport's or the namespace's IOPS
		// ceiling (4M in this scenario) and Little's law set the latency.
		rd := res.Phases[0]
		if rd.IOPS <= 0 || rd.IOPS > 4e6*1.05 || rd.LatUs.Avg < 512/rd.IOPS*1e6*0.99 {
			t.Errorf("%s: 4K reads at 16 x 32: %.0f IOPS, latency %.0f µs", c2.tr, rd.IOPS, rd.LatUs.Avg)
		}
		if r := must(t, c, "nvme disconnect -n "+model.DefaultTargetNQN, 0); !strings.Contains(r.Stdout, "disconnected 1 controller(s)") {
			t.Errorf("disconnect: %q", r.Stdout)
		}
		if r := must(t, c, "ls /dev/nvme*", 0); r.Stdout != "/dev/nvme0\n/dev/nvme0n1\n" {
			t.Errorf("after disconnect: %q", r.Stdout)
		}
		idle, err := mpstat.Parse([]byte(must(t, c, "mpstat 0", 0).Stdout))
		if err != nil || idle.Summary().All.Idle < 99.9 {
			t.Errorf("load not back to idle after the benchmark: %v %+v", err, idle)
		}
	}
}

// ib_write_lat: a server on host01 waits, a client on host02 finds it by
// host01's data address; both print their tables.
func TestLabPerftestPairing(t *testing.T) {
	l := startLab(t, "nvmeof-healthy.hcl")
	srvModel, err := model.Load(filepath.Join(l.Dir(), "nodes", "host01"))
	if err != nil {
		t.Fatal(err)
	}
	srv, cli := labtest.Client(t, l, "host01"), labtest.Client(t, l, "host02")
	var wg sync.WaitGroup
	var sr labtest.Result
	wg.Add(1)
	go func() { defer wg.Done(); sr, _ = labtest.Run(srv, "ib_write_lat -d mlx5_0") }()
	waitFile(t, filepath.Join(l.Dir(), "state", "perftest.json"), `"tool": "ib_write_lat"`)
	cr := must(t, cli, "ib_write_lat -d mlx5_0 "+srvModel.DataAddress, 0)
	wg.Wait()
	cp, err := perftest.Parse([]byte(cr.Stdout))
	// RoCE's typical latency is about 2.1 µs (InfiniBand's 1.05), drawn with
	// a 3 % run noise clipped at 3 sigma: 1.9 µs and up.
	if err != nil || len(cp.Latency) != 1 || cp.Latency[0].TypicalUs < 1.5 || cp.Latency[0].TypicalUs > 5 {
		t.Errorf("client (RoCE): %v %+v", err, cp)
	}
	sp, err := perftest.Parse([]byte(sr.Stdout))
	if err != nil || sr.Status != 0 || sp.Side != "server" || len(sp.Latency) != 1 {
		t.Errorf("server: %v %+v\n%s", err, sr, sr.Stdout)
	}
	if r := must(t, cli, "ib_write_bw 10.10.9.9", 1); !strings.HasPrefix(r.Stderr, "Couldn't connect to 10.10.9.9:18515") {
		t.Errorf("no server: %q", r.Stderr)
	}
}

func TestLabRDMANotOffered(t *testing.T) {
	l := startLab(t, "nvmeof-no-rdma-target.hcl")
	c := labtest.Client(t, l, "host02")
	r := must(t, c, "nvme connect -t rdma "+target, 1)
	if f := pnvme.ClassifyError(r.Stderr, r.Status); f == nil || f.Kind != pnvme.ConnectionReset {
		t.Errorf("rdma connect: %q classified %+v", r.Stderr, f)
	}
	if r := must(t, c, "ls /dev/nvme*", 0); r.Stdout != "/dev/nvme0\n/dev/nvme0n1\n" {
		t.Errorf("/dev: %q", r.Stdout)
	}
	must(t, c, "nvme connect -t tcp "+target, 0)
}
