package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	simmpstat "github.com/provadev/prova/lab/sim/mpstat"
	"github.com/provadev/prova/parse/elbencho"
	"github.com/provadev/prova/parse/fio"
	"github.com/provadev/prova/parse/mpstat"
	"github.com/provadev/prova/parse/perftest"
)

// Cross-check: prova's parsers read what the benchmark simulators print
// and write, with the numbers the simulators meant.
func TestElbenchoParsed(t *testing.T) {
	lat := map[string]float64{}
	for _, tr := range []string{"tcp", "rdma"} {
		e := newEnv(t, testNode("n1", "10.10.0.3", 100, "Ethernet"))
		e.connect(tr)
		dir := t.TempDir()
		csv, res := filepath.Join(dir, "r.csv"), filepath.Join(dir, "r.txt")
		r := e.run(Elbencho(), "-w", "-r", "-b", "4K", "-t", "1", "--iodepth", "1", "--direct", "--lat", "--latpercent", "--cpu",
			"--timelimit", "2", "--csvfile", csv, "--resfile", res, "/dev/nvme0n1")
		c, err := elbencho.ParseConsole([]byte(r.Stdout))
		if err != nil || len(c.Phases) != 2 || c.Phases[1].Name != "READ" {
			t.Fatalf("%s console: %+v %v\n%s", tr, c, err, r.Stdout)
		}
		rd := c.Phases[1]
		lat[tr] = rd.LatUs.Avg
		if rd.IOPS <= 0 || rd.LatUs.Avg+1 < 1e6/rd.IOPS*0.99 || // whole µs, truncated, as elbencho prints them
			rd.ElapsedMs < 1990 || rd.ElapsedMs > 2000 || rd.Last.CPUPct <= 0 {
			t.Errorf("%s read phase: %+v", tr, rd)
		}
		b, _ := os.ReadFile(csv)
		cf, err := elbencho.ParseCSV(b)
		if err != nil || len(cf.Phases) != 2 || cf.Phases[1].IOPS != rd.IOPS || cf.Phases[1].Config["path type"] != "blockdev" {
			t.Errorf("%s csvfile: %+v %v", tr, cf, err)
		}
		b, _ = os.ReadFile(res)
		rf, err := elbencho.ParseResfile(b)
		if err != nil || len(rf.Sections) != 1 || len(rf.Sections[0].Phases) != 2 || rf.Sections[0].CommandLine[0] != "elbencho" {
			t.Errorf("%s resfile: %+v %v\n%s", tr, rf, err, b)
		}
	}
	if lat["tcp"] < 75 || lat["tcp"] > 105 || lat["rdma"] < 20 || lat["rdma"] > 31 {
		t.Errorf("4K read latency at queue depth 1: tcp %.0f µs, rdma %.0f µs", lat["tcp"], lat["rdma"])
	}
	v, err := elbencho.ParseVersion([]byte(newEnv(t, testNode("n1", "a", 100, "Ethernet")).run(Elbencho(), "--version").Stdout))
	if err != nil || v.Version != elbenchoVersion || !v.Has("libaio") {
		t.Errorf("version: %+v %v", v, err)
	}
}

func TestFioParsed(t *testing.T) {
	e := newEnv(t, testNode("n1", "10.10.0.3", 100, "InfiniBand"))
	e.connect("rdma")
	for _, c := range []struct {
		args   []string
		jobs   int
		minMiB float64
	}{
		{[]string{"--rw=randread", "--bs=4k", "--iodepth=32", "--numjobs=4", "--group_reporting"}, 1, 100},
		{[]string{"--rw=read", "--bs=1M", "--iodepth=16", "--numjobs=2"}, 2, 10000},
	} {
		for _, format := range []string{"json", "normal", "normal,json"} {
			args := append([]string{"--name=job1", "--filename=/dev/nvme0n1", "--ioengine=libaio", "--direct=1", "--runtime=2",
				"--time_based", "--output-format=" + format}, c.args...)
			r := e.run(Fio(), args...)
			res, err := fio.Parse([]byte(r.Stdout))
			if err != nil || len(res.Jobs) != c.jobs {
				t.Fatalf("%v %s: %v\n%s", c.args, format, err, r.Stdout)
			}
			tot := res.Total()
			if tot.MiBps < c.minMiB || tot.IOPS <= 0 {
				t.Errorf("%v %s: total %+v", c.args, format, tot)
			}
		}
	}
}

func TestPerftestPairedAndParsed(t *testing.T) {
	for _, c := range []struct {
		tool  func() string
		ll    string
		fault string
	}{{func() string { return "ib_write_lat" }, "InfiniBand", ""}, {func() string { return "ib_write_lat" }, "Ethernet", ""},
		{func() string { return "ib_write_bw" }, "InfiniBand", ""}, {func() string { return "ib_write_bw" }, "InfiniBand", "firewall"}} {
		name := c.tool()
		t.Run(name+"/"+c.ll+"/"+c.fault, func(t *testing.T) {
			v := newEnv(t, testNode("gpfs01", "10.10.0.9", 100, c.ll))
			srvNode := testNode("gpfs02", "10.10.0.2", 100, c.ll)
			srvNode.Faults.RDMAConnect = c.fault
			srv := v.addNode(srvNode)
			cli := v.addNode(testNode("gpfs03", "10.10.0.3", 100, c.ll))
			tool := IbWriteLat()
			if name == "ib_write_bw" {
				tool = IbWriteBw()
			}
			var wg sync.WaitGroup
			var sres = make(chan string, 1)
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := runTool(t, srv, tool, "-d", "mlx5_0")
				sres <- r.Stdout + r.Stderr
			}()
			// The client retries until the server has registered.
			var cr struct {
				out, errs string
				status    int
			}
			for i := 0; i < 200; i++ {
				r := runTool(t, cli, tool, "-d", "mlx5_0", "10.10.0.2")
				cr.out, cr.errs, cr.status = r.Stdout, r.Stderr, r.Status
				if !strings.HasPrefix(r.Stderr, "Couldn't connect") {
					break
				}
				_ = srv.Sleep(context.Background(), 10e6)
			}
			wg.Wait()
			server := <-sres
			if c.fault != "" {
				if cr.status != 1 || !strings.Contains(cr.errs, "Completion with error at client") || !strings.Contains(server, "Completion with error at server") {
					t.Errorf("fault: client %+v\nserver %s", cr, server)
				}
				return
			}
			cres, err := perftest.Parse([]byte(cr.out))
			if err != nil || cr.status != 0 {
				t.Fatalf("client: %v %+v", err, cr)
			}
			sp, err := perftest.Parse([]byte(server))
			if err != nil || sp.Side != "server" {
				t.Fatalf("server: %v %+v\n%s", err, sp, server)
			}
			if name == "ib_write_lat" {
				typ := cres.Latency[0].TypicalUs
				// The simulator's base latency (1.05 µs InfiniBand, 2.1 µs
				// RoCE) varies by a normal 3 % clamped at three spreads, so
				// a run lies within 0.91-1.09 of it before the sample
				// spread: the bounds leave room for both.
				lo, hi := 0.9, 3.0
				if c.ll == "Ethernet" {
					lo, hi = 1.8, 5
				}
				if typ < lo || typ > hi {
					t.Errorf("%s t_typical %.2f µs", c.ll, typ)
				}
				return
			}
			if bw := cres.Bandwidth[0].AvgGbps; bw < 90 || bw > 99 {
				t.Errorf("ib_write_bw average %.1f Gb/s on 100 Gb/s", bw)
			}
		})
	}
	// No HCA: the sample's text and status.
	v := newEnv(t, testNode("n1", "10.10.0.3", 100, "InfiniBand"))
	v.e.Model()
	n, _ := v.e.Model()
	n.HCAs = nil
	r := v.run(IbWriteLat(), "-d", "mlx5_0")
	if p, err := perftest.Parse([]byte(r.Stdout + r.Stderr)); r.Status != 1 || err != nil || !p.NoDevice {
		t.Errorf("no HCA: %+v %v", r, err)
	}
}

// mpstat, while a benchmark's load is set, reports its CPU.
func TestMpstatSeesBenchmarkLoad(t *testing.T) {
	for _, c := range []struct {
		tr         string
		lo, hi     float64
		minBusyPct float64
	}{{"tcp", 6, 10, 20}, {"rdma", 0.4, 1.6, 2}} {
		n := testNode("n1", "10.10.0.3", 100, "Ethernet")
		v := newEnv(t, n)
		r, _ := newRand(v.e)
		o := simulate(r, pathOf(n, c.tr), workload{BS: 1 << 20, Inflight: 64, Time: 1e9}, 32)
		if err := v.e.SetLoad(o.Load.state(32, 2)); err != nil {
			t.Fatal(err)
		}
		res := v.run(simmpstat.Tool(), "-P", "ALL", "1", "1")
		p, err := mpstat.Parse([]byte(res.Stdout))
		if err != nil {
			t.Fatalf("mpstat: %v\n%s", err, res.Stdout)
		}
		sum := p.Summary()
		if sum.All.Soft < c.lo || sum.All.Soft > c.hi || 100-sum.All.Idle < c.minBusyPct/10 {
			t.Errorf("%s: mpstat all %+v", c.tr, sum.All)
		}
		if c.tr == "tcp" && (sum.BusyCores < 7 || sum.BusyCores > 12.5) || c.tr == "rdma" && (sum.BusyCores < 0.8 || sum.BusyCores > 2.5) {
			t.Errorf("%s: %.1f busy cores", c.tr, sum.BusyCores)
		}
	}
}
