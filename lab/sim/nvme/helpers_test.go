package nvme

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/simtest"
)

// node is a healthy lab node: one HDR IB port, OFED, one local drive,
// the default target.
func node() *model.Node {
	return &model.Node{Name: "gpfs03", Index: 3, Cluster: "lab.prova", CPUs: 32, DataAddress: "10.10.0.3",
		OFED: "MLNX_OFED_LINUX-23.10-1.1.9.0", NVMeDrives: 1, NVMeoF: model.DefaultNVMeoFTarget(),
		HCAs: []model.HCA{{Name: "mlx5_0", Ports: []model.Port{{Num: 1, State: "Active", PhysState: "LinkUp", Rate: 100,
			LinkLayer: "InfiniBand", Netdev: "ib0", NetdevUp: true}}}}}
}

// shell runs several nvme commands against one node directory.
type shell struct {
	t *testing.T
	e *sim.Env
}

func newShell(t *testing.T, n *model.Node) *shell {
	c := &simtest.Clock{T: time.Date(2026, 11, 29, 14, 3, 47, 0, time.UTC)}
	e, _, _ := simtest.Env(t, n, c, nil)
	return &shell{t: t, e: e}
}

func (s *shell) run(args ...string) simtest.Result {
	s.t.Helper()
	var out, errb bytes.Buffer
	e := *s.e
	e.Args, e.Stdout, e.Stderr = args, &out, &errb
	table, err := sim.NewTable(Tool())
	if err != nil {
		s.t.Fatal(err)
	}
	st := table.Run(context.Background(), "nvme", &e)
	return simtest.Result{Stdout: out.String(), Stderr: errb.String(), Status: st}
}

// dev lists the node's /dev/nvme* entries.
func (s *shell) dev() string {
	s.t.Helper()
	m, err := filepath.Glob(filepath.Join(s.e.Root(), "dev", "nvme*"))
	if err != nil {
		s.t.Fatal(err)
	}
	var names []string
	for _, p := range m {
		names = append(names, filepath.Base(p))
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

func (s *shell) touchLocal(names ...string) {
	for _, n := range names {
		p := filepath.Join(s.e.Root(), "dev", n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			s.t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
}
