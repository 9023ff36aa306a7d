package inventory

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// GPFSSource is one gpfs_cluster block (or --from-gpfs): a GPFS cluster
// whose nodes the inventory takes from the cluster itself. This package
// only records the source and merges what was found (WithGPFS); asking
// the cluster is the caller's job (internal/gpfsinv).
type GPFSSource struct {
	// Admin is the node to ask (mmlscluster, mmlsnodeclass, mmlsnsd run
	// there), as prova connects to it: a host of this inventory, or a
	// name ssh_config and DNS resolve.
	Admin string
	// Group is joined by every discovered node; default "gpfs", the group
	// the shipped GPFS runbooks run on.
	Group string
	// ShortNames names the hosts by the admin node name up to its first
	// dot (the address stays the full admin name).
	ShortNames bool
	// MaxAge, when > 0, lets a cached copy younger than this stand in for
	// asking the cluster.
	MaxAge    time.Duration
	DeclRange hcl.Range
}

// GPFSCluster is what asking one cluster found.
type GPFSCluster struct {
	Name  string `json:"name"`
	ID    string `json:"id"`
	Admin string `json:"admin"`
	// Nodes are in node number order.
	Nodes []GPFSNode `json:"nodes"`
	// Classes are every node class found, user-defined and system ones.
	Classes []string `json:"classes"`
	// FetchedAt is when the cluster was asked.
	FetchedAt time.Time `json:"fetched_at"`
	// Warnings are about what could not be taken over (a class member that
	// names no node, a class name that is not a valid group name).
	Warnings []string `json:"warnings,omitempty"`
}

// GPFSNode is one node of a cluster, from mmlscluster, mmlsnodeclass and
// mmlsnsd.
type GPFSNode struct {
	Number        int      `json:"number"`
	DaemonName    string   `json:"daemon_name"`
	DaemonAddress string   `json:"daemon_address"`
	AdminName     string   `json:"admin_name"`
	Designation   string   `json:"designation,omitempty"`
	Quorum        bool     `json:"quorum"`
	Manager       bool     `json:"manager"`
	NSDServer     bool     `json:"nsd_server"`
	Classes       []string `json:"classes,omitempty"`
}

// Designation groups every discovered node may join besides its node
// classes and the source's group.
const (
	GroupQuorum     = "quorum"
	GroupManager    = "manager"
	GroupNSDServers = "nsd_servers"
	// GroupClients holds the nodes that are neither quorum nor manager
	// nodes nor the server of any NSD.
	GroupClients = "clients"
)

// HostName is the inventory name of node n under source s.
func (s GPFSSource) HostName(n GPFSNode) string {
	name := n.AdminName
	if s.ShortNames {
		if _, err := netip.ParseAddr(name); err != nil {
			name, _, _ = strings.Cut(name, ".")
		}
	}
	return name
}

// gpfsInput is what parseHCL merges: the clusters found, one per source
// in source order (nil: nothing asked yet), and sources given besides the
// file's blocks (--from-gpfs).
type gpfsInput struct {
	extra []GPFSSource
	found []*GPFSCluster
}

// gpfsState collects a parse's gpfs_cluster blocks.
type gpfsState struct {
	in      *gpfsInput
	sources []GPFSSource
}

var gpfsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "admin", Required: true}, {Name: "group"}, {Name: "short_names"}, {Name: "max_age"},
}}

func (p *hclParser) gpfsClusterBlock(blk *hcl.Block) {
	content, diags := blk.Body.Content(gpfsSchema)
	p.b.diags = append(p.b.diags, diags...)
	src := GPFSSource{Group: "gpfs", DeclRange: blk.DefRange}
	if a, ok := content.Attributes["admin"]; ok {
		s, ok, d := attrString(refOf(a))
		p.b.diags = append(p.b.diags, d...)
		if ok {
			if err := checkHostName(s); err != nil {
				p.b.errorf(a.Expr.Range(), "Invalid admin node", "%s.", err)
				return
			}
			src.Admin = s
		}
	}
	if a, ok := content.Attributes["group"]; ok {
		s, ok, d := attrString(refOf(a))
		p.b.diags = append(p.b.diags, d...)
		if ok {
			if err := checkGroupName(s); err != nil {
				p.b.errorf(a.Expr.Range(), "Invalid group name", "%s.", err)
			}
			src.Group = s
		}
	}
	if a, ok := content.Attributes["short_names"]; ok {
		v, ok, d := attrBool(refOf(a))
		p.b.diags = append(p.b.diags, d...)
		src.ShortNames = ok && v
	}
	if a, ok := content.Attributes["max_age"]; ok {
		v, ok, d := attrDuration(refOf(a))
		p.b.diags = append(p.b.diags, d...)
		if ok {
			src.MaxAge = v
		}
	}
	if src.Admin == "" {
		return
	}
	for _, prev := range p.gpfs.sources {
		if prev.Admin == src.Admin {
			p.b.errorf(blk.DefRange, "Duplicate gpfs_cluster", "A gpfs_cluster block with admin %q is already at %s.", src.Admin, describeRange(prev.DeclRange))
			return
		}
	}
	p.gpfs.sources = append(p.gpfs.sources, src)
}

// finishGPFS adds the sources given outside the file and merges what was
// found into the builder. It runs after every block, so that what the
// file says of a discovered host wins: its address, its vars (per key);
// groups are the union.
func (p *hclParser) finishGPFS() {
	if p.gpfs.in == nil {
		return
	}
	p.gpfs.sources = append(p.gpfs.sources, p.gpfs.in.extra...)
	found := p.gpfs.in.found
	if found == nil {
		return
	}
	if len(found) != len(p.gpfs.sources) {
		p.b.errorf(hcl.Range{}, "GPFS clusters do not match their sources", "%d clusters for %d gpfs_cluster sources.", len(found), len(p.gpfs.sources))
		return
	}
	for i, c := range found {
		s := p.gpfs.sources[i]
		if c == nil {
			continue
		}
		for _, n := range c.Nodes {
			name := s.HostName(n)
			if err := checkHostName(name); err != nil {
				p.b.errorf(s.DeclRange, "Invalid discovered host name", "GPFS cluster %s (asked on %s): %s.", c.Name, s.Admin, err)
				continue
			}
			if !p.b.room(1, s.DeclRange) {
				return
			}
			h := p.b.host(name, s.DeclRange)
			if h.address == "" {
				h.address = n.AdminName
			}
			vars := gpfsVars(c, n)
			for k := range h.vars {
				delete(vars, k) // the file's value wins
			}
			setVars(&h.vars, vars)
			for _, g := range gpfsGroups(s, n) {
				p.b.member(h, g, s.DeclRange)
			}
		}
	}
}

// gpfsGroups lists the groups node n joins.
func gpfsGroups(s GPFSSource, n GPFSNode) []string {
	out := []string{s.Group}
	if n.Quorum {
		out = append(out, GroupQuorum)
	}
	if n.Manager {
		out = append(out, GroupManager)
	}
	if n.NSDServer {
		out = append(out, GroupNSDServers)
	}
	if !n.Quorum && !n.Manager && !n.NSDServer {
		out = append(out, GroupClients)
	}
	for _, c := range n.Classes {
		if c != "all" && c != "ungrouped" && checkGroupName(c) == nil {
			out = append(out, c)
		}
	}
	return out
}

// gpfsVars are the variables a discovered host gets.
func gpfsVars(c *GPFSCluster, n GPFSNode) map[string]cty.Value {
	classes := make([]cty.Value, len(n.Classes))
	for i, cl := range n.Classes {
		classes[i] = cty.StringVal(cl)
	}
	list := cty.ListValEmpty(cty.String)
	if len(classes) > 0 {
		list = cty.ListVal(classes)
	}
	return map[string]cty.Value{
		"gpfs_cluster":        cty.StringVal(c.Name),
		"gpfs_node_number":    cty.NumberIntVal(int64(n.Number)),
		"gpfs_daemon_name":    cty.StringVal(n.DaemonName),
		"gpfs_daemon_address": cty.StringVal(n.DaemonAddress),
		"gpfs_admin_name":     cty.StringVal(n.AdminName),
		"gpfs_designation":    cty.StringVal(n.Designation),
		"gpfs_node_classes":   list,
	}
}

// FromGPFS is an empty inventory with one GPFS source, for --from-gpfs
// without -i: every host comes from the cluster.
func FromGPFS(src GPFSSource) (*Inventory, error) {
	if src.Group == "" {
		src.Group = "gpfs"
	}
	if err := checkSource(src); err != nil {
		return nil, err
	}
	inv, _ := parseHCLWith("", nil, &gpfsInput{extra: []GPFSSource{src}})
	return inv, nil
}

// checkSource checks a source given outside a file.
func checkSource(src GPFSSource) error {
	if err := checkHostName(src.Admin); err != nil {
		return fmt.Errorf("GPFS admin node: %w", err)
	}
	if err := checkGroupName(src.Group); err != nil {
		return fmt.Errorf("GPFS group: %w", err)
	}
	return nil
}

// AddGPFS returns inv with one more GPFS source (--from-gpfs with -i).
// Only an HCL inventory (or one from FromGPFS) can take one.
func (inv *Inventory) AddGPFS(src GPFSSource) (*Inventory, error) {
	if src.Group == "" {
		src.Group = "gpfs"
	}
	if err := checkSource(src); err != nil {
		return nil, err
	}
	if inv.reparse == nil {
		return nil, fmt.Errorf("--from-gpfs combines with an HCL inventory only (%s is not one)", strings.Join(inv.Files, ", "))
	}
	for _, s := range inv.GPFS {
		if s.Admin == src.Admin {
			return inv, nil // the file asks the same admin node already
		}
	}
	out, diags := inv.reparse(&gpfsInput{extra: []GPFSSource{src}})
	if diags.HasErrors() {
		return nil, diags
	}
	return out, nil
}

// WithGPFS merges the clusters found, one per entry of inv.GPFS in order,
// into the inventory: the result holds the file's hosts and groups plus
// every discovered node (see doc.go, "GPFS clusters", for the rules).
func (inv *Inventory) WithGPFS(found []*GPFSCluster) (*Inventory, hcl.Diagnostics) {
	if len(inv.GPFS) == 0 {
		return inv, nil
	}
	if inv.regpfs == nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Inventory cannot take GPFS nodes", Detail: "Only an HCL inventory can hold a gpfs_cluster source."}}
	}
	out, diags := inv.regpfs(found)
	if out != nil {
		out.GPFSFound = found
		b, _ := json.Marshal(stableFound(found))
		out.Hash = hashHex(append([]byte(inv.Hash), b...))
	}
	return out, diags
}

// stableFound drops what changes between two askings of an unchanged
// cluster (the time), so that the inventory hash follows the nodes only.
func stableFound(found []*GPFSCluster) []GPFSCluster {
	out := make([]GPFSCluster, 0, len(found))
	for _, c := range found {
		if c != nil {
			cp := *c
			cp.FetchedAt = time.Time{}
			out = append(out, cp)
		}
	}
	return out
}

// attach records the sources on inv and how to parse again with GPFS
// input.
func (g *gpfsState) attach(inv *Inventory, filename string, src []byte) {
	if inv == nil {
		return
	}
	inv.GPFS = g.sources
	var extra []GPFSSource
	if g.in != nil {
		extra = g.in.extra
	}
	again := func(in *gpfsInput) (*Inventory, hcl.Diagnostics) {
		out, diags := parseHCLWith(filename, src, in)
		if out != nil {
			out.Files, out.Hash = []string{filename}, hashHex(src)
			if src == nil {
				out.Files = nil
			}
		}
		return out, diags
	}
	inv.reparse = func(in *gpfsInput) (*Inventory, hcl.Diagnostics) {
		return again(&gpfsInput{extra: append(append([]GPFSSource(nil), extra...), in.extra...)})
	}
	inv.regpfs = func(found []*GPFSCluster) (*Inventory, hcl.Diagnostics) {
		return again(&gpfsInput{extra: extra, found: found})
	}
}
