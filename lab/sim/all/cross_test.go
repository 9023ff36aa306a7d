package all

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/scenario"
	"github.com/provadev/prova/lab/sim/simtest"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/ibdev2netdev"
	"github.com/provadev/prova/parse/ibstat"
	"github.com/provadev/prova/parse/ibvdevinfo"
	"github.com/provadev/prova/parse/mpstat"
	"github.com/provadev/prova/parse/nvtopo"
	"github.com/provadev/prova/parse/ofed"
	"github.com/provadev/prova/parse/rdmalink"
)

func TestTableHasEveryTool(t *testing.T) {
	table, err := Table()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, n := range table.Names() {
		names[n] = true
	}
	// The simulated tools PRODUCT.md promises on every lab node.
	for _, want := range []string{"ibdev2netdev", "ibstat", "ibstatus", "ibv_devices", "ibv_devinfo", "mpstat",
		"nvidia-smi", "ofed_info", "rdma", "mmchconfig", "mmlsconfig", "mmdiag", "mmgetstate", "mmshutdown",
		"mmstartup", "mmlscluster", "mmfsadm", "nvme", "elbencho", "fio", "ib_write_lat", "ib_write_bw", "gdscheck"} {
		if !names[want] {
			t.Errorf("the lab has no simulated %s (tools: %v)", want, table.Names())
		}
	}
	healthy, _ := scenario.Healthy().Node(1, 1)
	installed := map[string]bool{}
	for _, n := range table.Installed(healthy) {
		installed[n] = true
	}
	for _, want := range []string{"ibdev2netdev", "ibstat", "ibstatus", "ibv_devices", "ibv_devinfo", "mpstat", "ofed_info", "rdma"} {
		if !installed[want] {
			t.Errorf("a healthy node lacks %s (has %v)", want, table.Installed(healthy))
		}
	}
}

// Cross-check: what the simulators print, prova's parsers read, for
// healthy and faulty nodes of the example scenarios.
func TestParsersReadSimulatorOutput(t *testing.T) {
	reg := parse.NewRegistry(ibstat.Parsers(), ibdev2netdev.Parsers(), ofed.Parsers(), ibvdevinfo.Parsers(),
		rdmalink.Parsers(), mpstat.Parsers(), nvtopo.Parsers())
	table, err := Table()
	if err != nil {
		t.Fatal(err)
	}
	nodes := map[string]*model.Node{}
	for _, c := range []struct {
		file string
		i, n int
	}{{"fallback.hcl", 1, 4}, {"fallback.hcl", 3, 4}, {"fallback.hcl", 4, 4}, {"gpu.hcl", 1, 2}, {"gpu.hcl", 2, 2}, {"ofed-mismatch.hcl", 2, 3}} {
		s, diags := scenario.Load("../../../examples/lab/" + c.file)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		m, err := s.Node(c.i, c.n)
		if err != nil {
			t.Fatal(err)
		}
		nodes[c.file+"/"+m.Name] = m
	}
	runs := []struct{ parser, tool, args string }{
		{"ibstat", "ibstat", ""}, {"ibstatus", "ibstatus", ""}, {"ibdev2netdev", "ibdev2netdev", ""},
		{"ibdev2netdev", "ibdev2netdev", "-v"}, {"ofed-info", "ofed_info", "-s"}, {"ibv-devinfo", "ibv_devinfo", ""},
		{"ibv-devices", "ibv_devices", ""}, {"rdma-link", "rdma", "link show"}, {"rdma-link", "rdma", "-j link show"},
		{"mpstat", "mpstat", "-P ALL 1 2"}, {"mpstat", "mpstat", "-o JSON -P ALL 1 2"}, {"nvidia-smi-topo", "nvidia-smi", "topo -m"},
	}
	for name, n := range nodes {
		for _, r := range runs {
			tool, _ := table.Lookup(r.tool)
			if tool.Installed != nil && !tool.Installed(n) {
				continue
			}
			p, ok := reg.Lookup(r.parser)
			if !ok {
				t.Fatalf("no parser %q", r.parser)
			}
			res := simtest.Run(t, tool, n, strings.Fields(r.args)...)
			v, err := p.Parse([]byte(res.Stdout))
			if err != nil {
				t.Errorf("%s: %s %s: parser %s: %v\n%s", name, r.tool, r.args, r.parser, err, res.Stdout)
				continue
			}
			js, _ := json.Marshal(v)
			if name == "fallback.hcl/gpfs03" && r.tool == "ibstat" && !strings.Contains(string(js), `"Down"`) {
				t.Errorf("fallback gpfs03: the parsed ibstat does not show the down port: %s", js)
			}
			if r.tool != "mpstat" && r.tool != "ofed_info" && !strings.Contains(string(js), n.HCAs[0].Name) {
				t.Errorf("%s: %s %s: parsed value does not name %s: %s", name, r.tool, r.args, n.HCAs[0].Name, js)
			}
		}
	}
}
