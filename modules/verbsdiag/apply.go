package verbsdiag

import (
	"context"
	"fmt"
	"sort"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
	parseofed "github.com/provadev/prova/parse/ofed"
)

type args struct {
	Versions map[string]string `cty:"ofed_versions"`
	Missing  []string          `cty:"missing"`
	Expected []string          `cty:"expected"`
	LogPath  string            `cty:"log_path"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Diagnose) NewArgs() any { return new(args) }

// Reads implements module.ReadOnly.
func (*Diagnose) Reads(cty.Value) string {
	return "reads ports, OFED, verbsPorts, verbs status and connections, mmlscluster, mmdiag --network and the GPFS log, and names the cause of missing RDMA peers"
}

// Apply gathers the evidence and decides.
func (*Diagnose) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	f, raw, err := gather(ctx, req.Host, a)
	if err != nil {
		return resp, err
	}
	v := Decide(f)
	resp.Evidence = raw
	resp.Message = v.Explanation
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{
		"node": cty.StringVal(f.Node), "healthy": cty.BoolVal(v.Healthy), "cause": cty.StringVal(v.Cause),
		"explanation": cty.StringVal(v.Explanation), "evidence": module.StringList(v.Evidence), "missing": module.StringList(f.Missing),
		"witnesses_agree": cty.BoolVal(v.WitnessesAgree), "witnesses": module.StringList(v.Witnesses),
	})
	c := module.Check{Name: "RDMA in use on " + f.Node, Measured: fmt.Sprintf("%d/%d peers, cause %s", len(f.Expected)-len(f.Missing), len(f.Expected), v.Cause),
		Threshold: "every expected peer over RDMA, verbsPorts Active/LinkUp", Verdict: "pass", Message: v.Explanation}
	if !v.Healthy {
		c.Verdict = "fail"
	}
	resp.Checks = []module.Check{c}
	return resp, nil
}

// gather runs the read-only probes. Each parse error names the tool, the
// line and the host.
func gather(ctx context.Context, h module.Host, a args) (Facts, map[string]string, error) {
	raw := map[string]string{}
	f := Facts{Node: h.Name(), Versions: a.Versions}
	ports, err := gpfscmd.ReadPorts(ctx, h)
	if err != nil {
		return f, raw, err
	}
	f.Ports = ports
	raw["ibstat"], raw["ibdev2netdev"] = ports.IbstatRaw, ports.Ibdev2netdevRaw
	if err := readOFED(ctx, h, &f, raw); err != nil {
		return f, raw, err
	}
	cl, clRaw, err := gpfscmd.Cluster(ctx, h)
	if err != nil {
		return f, raw, err
	}
	raw["mmlscluster"] = clRaw
	self, found, err := gpfscmd.LocalNode(ctx, h, cl)
	if err != nil {
		return f, raw, err
	}
	if found {
		f.Node = self.DaemonName
	}
	cfg, cfgRaw, err := gpfscmd.Config(ctx, h)
	if err != nil {
		return f, raw, err
	}
	raw["mmlsconfig -Y"] = cfgRaw
	f.VerbsRdma, _ = gpfscmd.Configured(cfg, "verbsRdma", f.Node, nil)
	f.VerbsPorts, _ = gpfscmd.Configured(cfg, "verbsPorts", f.Node, nil)
	f.Pagepool, _ = gpfscmd.Configured(cfg, "pagepool", f.Node, nil)
	if err := readStatus(ctx, h, &f, raw); err != nil {
		return f, raw, err
	}
	cr, err := gpfscmd.VerbsConn(ctx, h)
	if err != nil {
		return f, raw, err
	}
	conns := cr.Conns
	raw[cr.Command] = cr.Raw
	rep := gpfscmd.Report(cl, self, found, conns, a.Expected, h.Name())
	f.Expected, f.Missing = rep.Expected, rep.Missing
	if a.Missing != nil {
		f.Missing = a.Missing
	}
	lg, logRaw, _, err := gpfscmd.ReadLog(ctx, h, a.LogPath)
	if err != nil {
		return f, raw, err
	}
	raw[a.LogPath] = logRaw
	f.Log = lg
	f.PeerKey = peerKeys(cl, a.Versions)
	nd, ndRaw, down, err := gpfscmd.Network(ctx, h)
	if err != nil {
		return f, raw, err
	}
	raw["mmdiag --network"] = ndRaw
	resolve := resolver(cl)
	f.Witnesses = []Witness{networkWitness(nd, down, f.Started, f.Expected, resolve), logWitness(f.Log, f.Expected, resolve)}
	return f, raw, nil
}

// resolver maps a name or address a witness prints to the peer's daemon
// name (unchanged when mmlscluster does not know it).
func resolver(cl *gpfs.Cluster) func(string) string {
	idx := gpfscmd.IndexNodes(cl)
	return func(q string) string {
		if n, _, ok := idx.Find(q); ok {
			return n.DaemonName
		}
		return q
	}
}

// peerKeys maps a peer's daemon name to its key in versions (an inventory
// name, a GPFS name or an address), resolved once through a NodeIndex so
// that a diagnosis over N peers stays O(N).
func peerKeys(cl *gpfs.Cluster, versions map[string]string) func(string) (string, bool) {
	idx := gpfscmd.IndexNodes(cl)
	byDaemon := map[string]string{}
	var unresolved []string
	for k := range versions {
		if n, _, ok := idx.Find(k); ok {
			if prev, dup := byDaemon[n.DaemonName]; !dup || k < prev {
				byDaemon[n.DaemonName] = k
			}
			continue
		}
		unresolved = append(unresolved, k)
	}
	sort.Strings(unresolved)
	return func(peer string) (string, bool) {
		if k, ok := byDaemon[peer]; ok {
			return k, true
		}
		for _, k := range unresolved { // keys mmlscluster does not know: few
			if gpfscmd.SameNode(k, peer) {
				return k, true
			}
		}
		return "", false
	}
}

func readOFED(ctx context.Context, h module.Host, f *Facts, raw map[string]string) error {
	out, err := gpfscmd.Probe(ctx, h, "ofed_info -s")
	if err != nil {
		return err
	}
	raw["ofed_info -s"] = out.Stdout + out.Stderr
	switch {
	case gpfscmd.NotInstalled(out):
		f.OFEDMessage = gpfscmd.LastLine(out)
		return nil
	case out.RC != 0:
		return gpfscmd.Failure(h, "ofed_info", out)
	}
	res, err := parseofed.Parse([]byte(out.Stdout))
	if err != nil {
		return gpfscmd.ParseFailure(h, err)
	}
	f.OFEDInstalled, f.OFEDVersion, f.OFEDMessage = !res.NotInstalled, res.Version, res.Message
	return nil
}

func readStatus(ctx context.Context, h module.Host, f *Facts, raw map[string]string) error {
	out, err := gpfscmd.Probe(ctx, h, gpfscmd.MM("mmfsadm", "test", "verbs", "status"))
	if err != nil {
		return err
	}
	raw["mmfsadm test verbs status"] = out.Stdout + out.Stderr
	if gpfscmd.NotInstalled(out) {
		return gpfscmd.Failure(h, "mmfsadm", out)
	}
	if out.RC != 0 {
		f.Status = "unavailable: " + gpfscmd.LastLine(out)
		return nil
	}
	st, err := gpfs.ParseVerbsStatus([]byte(out.Stdout))
	if err != nil {
		return gpfscmd.ParseFailure(h, err)
	}
	f.Started, f.Status = st.Started, st.Status
	return nil
}
