package apply

import (
	"context"
	"slices"
	"sort"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/program"
)

// pairModule is a ClusterModule: it sees every host of the step at once and
// gives each a result naming its partner.
type pairModule struct{ got [][]string }

func (*pairModule) ID() string                         { return "pairs" }
func (*pairModule) Spec() hcldec.Spec                  { return &hcldec.ObjectSpec{} }
func (*pairModule) Outputs() cty.Type                  { return cty.Object(map[string]cty.Type{"partner": cty.String}) }
func (*pairModule) Validate(cty.Value) hcl.Diagnostics { return nil }
func (*pairModule) Reads(cty.Value) string             { return "pairs hosts" }
func (*pairModule) ApplyOnly()                         {}
func (*pairModule) Apply(context.Context, module.ApplyRequest) (module.ApplyResponse, error) {
	panic("a cluster module's Apply must not be called per host")
}
func (p *pairModule) ApplyCluster(ctx context.Context, req module.ClusterRequest) (map[string]module.ApplyResponse, error) {
	names := append([]string(nil), req.Order...)
	sort.Strings(names)
	p.got = append(p.got, names)
	out := map[string]module.ApplyResponse{}
	for i, h := range req.Order {
		partner := req.Order[(i+1)%len(req.Order)]
		if _, err := module.Capture(ctx, req.Hosts[h], "echo ping "+partner); err != nil {
			return nil, err
		}
		out[h] = module.ApplyResponse{Outputs: cty.ObjectVal(map[string]cty.Value{"partner": cty.StringVal(partner)})}
	}
	return out, nil
}

func TestClusterModuleRunsOncePerBatch(t *testing.T) {
	src := `
step "pairs" "lat" {
  when = host.name != "n4"
}
step "cmd" "after" {
  when    = !step.lat.skipped
  command = "echo ${step.lat.partner}"
}
`
	rb, diags := config.Parse(map[string][]byte{"t.hcl": []byte(src)})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	pm := &pairModule{}
	reg := module.NewRegistry()
	reg.Register(cmdModule{})
	reg.Register(pm)
	prog, diags := program.Bind(rb, reg)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	hosts := []string{"n1", "n2", "n3", "n4"}
	var his []eval.HostInfo
	for _, h := range hosts {
		his = append(his, eval.HostInfo{Name: h})
	}
	scope := eval.NewScope(nil, his, nil, ".", prog.ResultTypes())
	scope.Locals = map[string]cty.Value{}
	f := newFleet()
	ev := &events{}
	out, err := New(prog, scope, testInv(hosts), Options{Mode: ModeApply, Host: f.host, Observer: ev}).Run(context.Background())
	if err != nil || out.Failed {
		t.Fatalf("run: %v %+v", err, out)
	}
	if len(pm.got) != 1 || !slices.Equal(pm.got[0], []string{"n1", "n2", "n3"}) {
		t.Fatalf("ApplyCluster calls = %v; want one call with the hosts whose when held", pm.got)
	}
	cmds := f.commands()
	for _, want := range []string{"n1: echo n2", "n3: echo n1", "n1: echo ping n2"} {
		if !slices.Contains(cmds, want) {
			t.Errorf("missing %q in %v", want, cmds)
		}
	}
	if st := ev.finished()["pairs.lat@n4"].Status; st != event.Skipped {
		t.Errorf("n4 status = %s, want skipped", st)
	}
}
