package gpfsinv

import (
	"context"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/inventory"
	"github.com/provadev/prova/parse/gpfs"
)

// binDir is where GPFS installs its commands; not on root's default PATH.
const binDir = "/usr/lpp/mmfs/bin"

// Commands are the read-only commands Ask runs on the admin node, in order.
var Commands = [][]string{{"mmlscluster"}, {"mmlsnodeclass", "--all"}, {"mmlsnsd"}}

// AskTimeout bounds asking one admin node (connecting and the three
// commands): a hung mm command fails the inventory instead of blocking it.
const AskTimeout = 2 * time.Minute

// AdminWarning says when the admin node asked does not appear under the
// same name among the hosts the cluster yields (asked as "gpfs01", listed
// as "gpfs01.example.com"): the inventory then holds it twice if the file
// also has a host entry for it. "" when it does appear, or not at all.
func AdminWarning(src inventory.GPFSSource, c *inventory.GPFSCluster) string {
	short := func(s string) string { s, _, _ = strings.Cut(s, "."); return s }
	for _, n := range c.Nodes {
		if src.HostName(n) == src.Admin {
			return ""
		}
	}
	for _, n := range c.Nodes {
		if short(n.AdminName) == short(src.Admin) || short(n.DaemonName) == short(src.Admin) {
			return fmt.Sprintf("GPFS cluster %s: the admin node %s asked is listed as host %s; name it so in admin, or set short_names = true, so that it is one host", c.Name, src.Admin, src.HostName(n))
		}
	}
	return ""
}

// Outputs are the raw outputs of Commands, by command line.
type Outputs map[string]string

// Ask runs Commands on h, the admin node of cluster source admin, and
// builds what they say. now is the time recorded as FetchedAt.
func Ask(ctx context.Context, h module.Host, now time.Time) (*inventory.GPFSCluster, Outputs, error) {
	outs := Outputs{}
	for _, argv := range Commands {
		line := strings.Join(argv, " ")
		out, err := module.Capture(ctx, h, "PATH=$PATH:"+binDir+" "+module.Command(argv...))
		if err != nil {
			return nil, outs, fmt.Errorf("%s on %s: %w", line, h.Name(), err)
		}
		outs[line] = out.Stdout
		if out.RC == 127 {
			return nil, outs, fmt.Errorf("%s is not installed on %s (is it a GPFS node?): %s", argv[0], h.Name(), lastLine(out))
		}
		if out.RC != 0 && !(argv[0] == "mmlsnsd" && strings.Contains(out.Stderr+out.Stdout, "No disks were found")) {
			return nil, outs, fmt.Errorf("%s on %s exited %d: %s", line, h.Name(), out.RC, lastLine(out))
		}
	}
	c, err := Build(h.Name(), outs)
	if err != nil {
		return nil, outs, err
	}
	c.FetchedAt = now.UTC()
	return c, outs, nil
}

// Build reads the outputs of Commands run on admin.
func Build(admin string, outs Outputs) (*inventory.GPFSCluster, error) {
	cl, err := gpfs.ParseMmlscluster([]byte(outs["mmlscluster"]))
	if err != nil {
		return nil, fmt.Errorf("on %s: %w", admin, err)
	}
	classes, err := gpfs.ParseMmlsnodeclass([]byte(outs["mmlsnodeclass --all"]))
	if err != nil {
		return nil, fmt.Errorf("on %s: %w", admin, err)
	}
	nsds := &gpfs.NSDs{}
	if s := outs["mmlsnsd"]; strings.TrimSpace(s) != "" {
		if nsds, err = gpfs.ParseMmlsnsd([]byte(s)); err != nil {
			return nil, fmt.Errorf("on %s: %w", admin, err)
		}
	}
	if len(cl.Nodes) == 0 {
		return nil, fmt.Errorf("mmlscluster on %s lists no nodes", admin)
	}
	out := &inventory.GPFSCluster{Name: cl.Name, ID: cl.ID, Admin: admin, Nodes: make([]inventory.GPFSNode, len(cl.Nodes)), Classes: []string{}}
	idx := newNodeIndex(cl.Nodes)
	for i, n := range cl.Nodes {
		out.Nodes[i] = inventory.GPFSNode{
			Number: n.Number, DaemonName: n.DaemonName, DaemonAddress: n.IP, AdminName: n.AdminName,
			Designation: n.Designation, Quorum: n.Quorum, Manager: n.Manager,
		}
	}
	for _, d := range nsds.Disks {
		for _, s := range d.Servers {
			i, ok := idx.lookup(s)
			if !ok {
				out.Warnings = append(out.Warnings, fmt.Sprintf("mmlsnsd: NSD %s is served by %s, which mmlscluster does not list", d.Name, s))
				continue
			}
			out.Nodes[i].NSDServer = true
		}
	}
	for _, c := range classes.Classes {
		out.Classes = append(out.Classes, c.Name)
		for _, m := range classes.Nodes(c.Name) {
			i, ok := idx.lookup(m)
			if !ok {
				out.Warnings = append(out.Warnings, fmt.Sprintf("mmlsnodeclass: class %s has member %s, which mmlscluster does not list", c.Name, m))
				continue
			}
			if p := &out.Nodes[i]; !contains(p.Classes, c.Name) {
				p.Classes = append(p.Classes, c.Name)
			}
		}
	}
	return out, nil
}

// nodeIndex finds a node by daemon name, admin name, IP address or node
// number, names compared as gpfs.Cluster.Node does (case-insensitive; a
// short name matches a long one, two domains never), in constant time:
// a 1,000-node cluster has as many class members to resolve.
type nodeIndex struct {
	exact  map[string]int // lowercased names, addresses and numbers
	byHead map[string]int // lowercased short form of long names
}

func newNodeIndex(nodes []gpfs.ClusterNode) nodeIndex {
	x := nodeIndex{exact: map[string]int{}, byHead: map[string]int{}}
	add := func(m map[string]int, k string, i int) {
		if _, dup := m[k]; !dup && k != "" {
			m[k] = i
		}
	}
	for i, n := range nodes {
		add(x.exact, n.IP, i)
		add(x.exact, strconv.Itoa(n.Number), i)
		for _, name := range []string{n.DaemonName, n.AdminName} {
			name = strings.ToLower(name)
			add(x.exact, name, i)
			if head, _, long := strings.Cut(name, "."); long {
				add(x.byHead, head, i)
			}
		}
	}
	return x
}

func (x nodeIndex) lookup(name string) (int, bool) {
	name = strings.ToLower(name)
	if i, ok := x.exact[name]; ok {
		return i, true
	}
	if _, err := netip.ParseAddr(name); err == nil {
		return 0, false
	}
	head, _, long := strings.Cut(name, ".")
	if !long {
		i, ok := x.byHead[head] // short name, long node name
		return i, ok
	}
	if i, ok := x.exact[head]; ok && !strings.Contains(head, ".") { // long name, short node name
		return i, ok
	}
	return 0, false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func lastLine(out module.Output) string {
	for _, s := range []string{out.Stderr, out.Stdout} {
		if t := strings.TrimSpace(s); t != "" {
			lines := strings.Split(t, "\n")
			return strings.TrimSpace(lines[len(lines)-1])
		}
	}
	return "(no output)"
}
