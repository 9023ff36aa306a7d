package bench

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/nvme"
	"github.com/provadev/prova/lab/sim/simtest"
)

// testNode is a 32-CPU node with one port of rate Gb/s (InfiniBand or
// Ethernet) and the default NVMe-oF target.
func testNode(name, addr string, rate int, linkLayer string) *model.Node {
	return &model.Node{Name: name, Index: 3, Cluster: "lab.prova", CPUs: 32, NUMANodes: 2, DataAddress: addr,
		Kernel: "5.14.0-362.24.1.el9_3.x86_64", OFED: "MLNX_OFED_LINUX-23.10-1.1.9.0", NVMeoF: model.DefaultNVMeoFTarget(),
		HCAs: []model.HCA{{Name: "mlx5_0", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp", Rate: rate,
			LinkLayer: linkLayer, Netdev: "ib0", NetdevUp: true, LID: 7}}}}}
}

// env is a node directory with a fake clock, shared by several commands.
type env struct {
	t   *testing.T
	e   *sim.Env
	clk *simtest.Clock
}

func newEnv(t *testing.T, n *model.Node) *env {
	c := &simtest.Clock{T: time.Date(2026, 11, 29, 14, 3, 47, 0, time.UTC)}
	e, _, _ := simtest.Env(t, n, c, nil)
	return &env{t: t, e: e, clk: c}
}

// addNode lays out another node in the same lab directory, with a real
// clock (for pairing tests, where two commands run at once).
func (v *env) addNode(n *model.Node) *sim.Env {
	dir := filepath.Join(v.e.Dir, "nodes", n.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		v.t.Fatal(err)
	}
	if err := n.Save(dir); err != nil {
		v.t.Fatal(err)
	}
	return &sim.Env{Dir: v.e.Dir, Node: n.Name, Getenv: func(string) string { return "" }, Now: time.Now,
		Sleep: func(ctx context.Context, d time.Duration) error {
			select {
			case <-time.After(d):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}}
}

func runTool(t *testing.T, e *sim.Env, tool sim.Tool, args ...string) simtest.Result {
	t.Helper()
	var out, errb bytes.Buffer
	c := *e
	c.Args, c.Stdout, c.Stderr = args, &out, &errb
	table, err := sim.NewTable(tool)
	if err != nil {
		t.Fatal(err)
	}
	st := table.Run(context.Background(), tool.Name, &c)
	return simtest.Result{Stdout: out.String(), Stderr: errb.String(), Status: st}
}

func (v *env) run(tool sim.Tool, args ...string) simtest.Result {
	v.t.Helper()
	return runTool(v.t, v.e, tool, args...)
}

// connect connects the node to the default target over tr.
func (v *env) connect(tr string) {
	v.t.Helper()
	r := v.run(nvme.Tool(), "connect", "-t", tr, "-a", model.DefaultTargetAddress, "-n", model.DefaultTargetNQN)
	if r.Status != 0 {
		v.t.Fatalf("connect %s: %+v", tr, r)
	}
}
