package inventory

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// builder is the format-independent form every parser fills in; build
// resolves it into an Inventory.
type builder struct {
	defaults    connDef
	defaultVars map[string]cty.Value

	hosts   []*hostDef
	hostIdx map[string]*hostDef

	groups     map[string]*groupDef
	groupOrder []string

	diags hcl.Diagnostics
	full  bool // the host limit was reported
	// ansible is set by the Ansible readers: ansible_group_priority then
	// orders groups (see groupPriorities).
	ansible bool
}

// maxHosts bounds the hosts of one inventory.
const maxHosts = 100000

// room reports whether n more hosts fit, reporting an error at rng once
// when they do not.
func (b *builder) room(n int, rng hcl.Range) bool {
	if len(b.hosts)+n <= maxHosts {
		return true
	}
	if !b.full {
		b.full = true
		b.errorf(rng, "Too many hosts", "An inventory may hold at most %d hosts.", maxHosts)
	}
	return false
}

type hostDef struct {
	name    string
	address string
	conn    connDef
	vars    map[string]cty.Value
	// ownVars: vars is this host's alone (an HCL host block's own map),
	// so that build may complete it in place rather than copy it
	ownVars bool
	groups  []string // direct memberships, may repeat
	rng     hcl.Range
	// declared is set once a host body (an HCL host block) was seen.
	declared bool
}

type groupDef struct {
	name        string
	children    []string
	childRanges []hcl.Range
	vars        map[string]cty.Value
	conn        connDef
	// fileVars and fileConn come from group_vars/ files, which Ansible
	// applies after every group's inventory variables (see build).
	fileVars map[string]cty.Value
	fileConn connDef
	rng      hcl.Range
	// known is set when the group is declared (block, section) or has a
	// member host; a group that is only named as a child or a vars target
	// is undefined.
	known bool
	// block is set when the group's own block or section was seen.
	block   bool
	refWhat string // how an unknown group was first referenced
}

func newBuilder() *builder {
	b := &builder{
		hostIdx: map[string]*hostDef{},
		groups:  map[string]*groupDef{},
	}
	b.group("all", hcl.Range{}).known = true
	b.group("ungrouped", hcl.Range{}).known = true
	return b
}

// reserve makes room for about n hosts, a hint taken from the number of
// blocks of an HCL file, so that the host index does not grow by
// rehashing as they are added.
func (b *builder) reserve(n int) {
	if len(b.hosts) == 0 && n > len(b.hostIdx) {
		b.hostIdx = make(map[string]*hostDef, n)
		b.hosts = make([]*hostDef, 0, n)
	}
}

// host returns the host named name, creating it at rng if new.
func (b *builder) host(name string, rng hcl.Range) *hostDef {
	if h, ok := b.hostIdx[name]; ok {
		return h
	}
	h := &hostDef{name: name, rng: rng}
	b.hostIdx[name] = h
	b.hosts = append(b.hosts, h)
	return h
}

// group returns the group named name, creating it at rng if new.
func (b *builder) group(name string, rng hcl.Range) *groupDef {
	if g, ok := b.groups[name]; ok {
		return g
	}
	g := &groupDef{name: name, rng: rng}
	b.groups[name] = g
	b.groupOrder = append(b.groupOrder, name)
	return g
}

// member makes host h a direct member of group name.
func (b *builder) member(h *hostDef, name string, rng hcl.Range) {
	g := b.group(name, rng)
	g.known = true
	if name == "all" || name == "ungrouped" {
		return
	}
	h.groups = append(h.groups, name)
}

// child makes group child a child of group parent.
func (b *builder) child(parent, child string, rng hcl.Range) {
	if child == "all" {
		b.errorf(rng, "Invalid child group", "Group \"all\" contains every group and cannot be a child of %q.", parent)
		return
	}
	p := b.group(parent, rng)
	c := b.group(child, rng)
	if !c.known && c.refWhat == "" {
		c.rng = rng
		c.refWhat = fmt.Sprintf("is listed as a child of group %q", parent)
	}
	for _, existing := range p.children {
		if existing == child {
			return
		}
	}
	p.children = append(p.children, child)
	p.childRanges = append(p.childRanges, rng)
}

func (b *builder) errorf(rng hcl.Range, summary, format string, args ...any) {
	r := rng
	b.diags = append(b.diags, &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  summary,
		Detail:   fmt.Sprintf(format, args...),
		Subject:  &r,
	})
}

// setVars merges vars into *dst, later values winning.
func setVars(dst *map[string]cty.Value, vars map[string]cty.Value) {
	if len(vars) == 0 {
		return
	}
	if *dst == nil {
		*dst = make(map[string]cty.Value, len(vars))
	}
	for k, v := range vars {
		(*dst)[k] = v
	}
}
