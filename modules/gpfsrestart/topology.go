package gpfsrestart

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
	"github.com/provadev/prova/parse/gpfs"
)

// topology is what the rollout must respect: which nodes are quorum
// nodes, managers and NSD servers, and which NSDs each serves.
type topology struct {
	all        []string // every cluster node, daemon names, cluster order
	quorum     map[string]bool
	manager    map[string]bool
	serves     map[string][]string // node -> NSDs it serves
	servers    map[string][]string // NSD -> its servers, primary first
	tiebreaker bool                // tiebreakerDisks set: node quorum with tiebreaker disks
	evidence   map[string]string
}

// special nodes restart in waves of their own; the others in batches.
func (t *topology) special(n string) bool {
	return t.quorum[n] || t.manager[n] || len(t.serves[n]) > 0
}

// quorumCount is the number of quorum nodes.
func (t *topology) quorumCount() int {
	q := 0
	for _, n := range t.all {
		if t.quorum[n] {
			q++
		}
	}
	return q
}

// maxQuorumDown is how many quorum nodes may be down at once: as many as
// leave a majority, or with tiebreaker disks one (GPFS keeps quorum with
// one quorum node and the tiebreaker disks; prova stays at one at a time).
func (t *topology) maxQuorumDown() int {
	q := t.quorumCount()
	if t.tiebreaker {
		return min(1, q-1)
	}
	return q - (q/2 + 1)
}

// readTopology reads mmlscluster, mmlsnsd and the tiebreakerDisks setting
// (mmlsconfig -Y) on h; quorum, when given, replaces mmlscluster's quorum
// designations.
func readTopology(ctx context.Context, h module.Host, quorum []string) (*gpfs.Cluster, *topology, error) {
	cl, raw, err := gpfscmd.Cluster(ctx, h)
	if err != nil {
		return nil, nil, err
	}
	t := &topology{quorum: map[string]bool{}, manager: map[string]bool{}, serves: map[string][]string{},
		servers: map[string][]string{}, evidence: map[string]string{"mmlscluster": raw}}
	for _, n := range cl.Nodes {
		t.all = append(t.all, n.DaemonName)
		if quorum == nil && n.Quorum {
			t.quorum[n.DaemonName] = true
		}
		if n.Manager {
			t.manager[n.DaemonName] = true
		}
	}
	for _, q := range quorum {
		n, ok := gpfscmd.FindNode(cl, q)
		if !ok {
			return nil, nil, fmt.Errorf("quorum node %q is not in the cluster (mmlscluster on %s lists %s)", q, h.Name(), strings.Join(t.all, ", "))
		}
		t.quorum[n.DaemonName] = true
	}
	out, err := gpfscmd.Probe(ctx, h, gpfscmd.MM("mmlsnsd"))
	if err != nil {
		return nil, nil, err
	}
	t.evidence["mmlsnsd"] = out.Stdout + out.Stderr
	switch {
	case out.RC != 0 && strings.Contains(out.Stdout+out.Stderr, "No disks were found"):
	case gpfscmd.NotInstalled(out):
		return nil, nil, fmt.Errorf("mmlsnsd is not installed on %s (%s)", h.Name(), gpfscmd.LastLine(out))
	case out.RC != 0:
		return nil, nil, gpfscmd.Failure(h, "mmlsnsd", out)
	default:
		nsds, err := gpfs.ParseMmlsnsd([]byte(out.Stdout))
		if err != nil {
			return nil, nil, gpfscmd.ParseFailure(h, err)
		}
		for _, d := range nsds.Disks {
			for _, s := range d.Servers {
				n, ok := gpfscmd.FindNode(cl, s)
				if !ok {
					return nil, nil, fmt.Errorf("mmlsnsd on %s: NSD %s is served by %q, which mmlscluster does not list", h.Name(), d.Name, s)
				}
				if !slices.Contains(t.servers[d.Name], n.DaemonName) {
					t.servers[d.Name] = append(t.servers[d.Name], n.DaemonName)
					t.serves[n.DaemonName] = append(t.serves[n.DaemonName], d.Name)
				}
			}
		}
	}
	cfg, _, err := gpfscmd.Config(ctx, h)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range cfg.Values("tiebreakerDisks") {
		if len(e.Nodes) == 0 && e.Value != "" && !strings.EqualFold(e.Value, "no") {
			t.tiebreaker = true
		}
	}
	return cl, t, nil
}
