package inventory

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// build checks the group graph and resolves every host's groups, connection
// and variables. It returns nil when there are errors.
func (b *builder) build() (*Inventory, hcl.Diagnostics) {
	for _, name := range b.groupOrder {
		g := b.groups[name]
		if !g.known {
			b.errorf(g.rng, "Undefined group", "Group %q %s but is never defined.", name, g.refWhat)
		}
	}
	b.checkCycles()
	prio := b.groupPriorities()
	if b.diags.HasErrors() {
		return nil, b.diags
	}

	parents := map[string][]string{}
	for _, name := range b.groupOrder {
		for _, c := range b.groups[name].children {
			parents[c] = append(parents[c], name)
		}
	}
	depth := map[string]int{"all": 0}
	var depthOf func(string) int
	depthOf = func(g string) int {
		if d, ok := depth[g]; ok {
			return d
		}
		d := 1
		for _, p := range parents[g] {
			if pd := depthOf(p) + 1; pd > d {
				d = pd
			}
		}
		depth[g] = d
		return d
	}

	inv := &Inventory{
		Hosts:    make([]*Host, 0, len(b.hosts)),
		Groups:   make(map[string]*Group, len(b.groups)),
		Defaults: b.defaults.c,
	}
	for _, name := range b.groupOrder {
		g := b.groups[name]
		children := append([]string(nil), g.children...)
		sort.Strings(children)
		vars, conn := copyVars(g.vars), g.conn
		setVars(&vars, g.fileVars)
		conn.over(g.fileConn)
		inv.Groups[name] = &Group{
			Name:       name,
			Children:   children,
			Vars:       vars,
			Connection: conn.c,
			DeclRange:  g.rng,
		}
	}
	var top []string
	for _, name := range b.groupOrder {
		if name != "all" && onlyAll(parents[name]) {
			top = append(top, name)
		}
	}
	sort.Strings(top)
	inv.Groups["all"].Children = top

	// Hosts with the same direct groups share everything up to their own
	// settings: the group closure, the precedence order and the merged
	// connection and variables of defaults and groups, computed once per
	// distinct list of direct groups.
	if all := inv.Groups["all"]; len(b.hosts) > 0 && all.Hosts == nil {
		all.Hosts = make([]string, 0, len(b.hosts)) // every host is in all
	}
	bases := map[string]*hostBase{}
	var key strings.Builder
	for _, hd := range b.hosts {
		key.Reset()
		for _, g := range hd.groups {
			key.WriteString(g)
			key.WriteByte(0)
		}
		base, ok := bases[key.String()]
		if !ok || evaluateAll {
			base = b.hostBase(hd.groups, parents, depthOf, prio)
			bases[key.String()] = base
		}
		groups := append([]string(nil), base.groups...)
		conn := base.conn
		if conn.c.IdentityFiles != nil {
			conn.c.IdentityFiles = append([]string(nil), conn.c.IdentityFiles...) // each host its own, as before
		}
		var vars map[string]cty.Value
		if hd.ownVars && !evaluateAll {
			// the host's own map completed with what it does not set:
			// the same map as a copy of base.vars overwritten with it
			vars = hd.vars
			for k, v := range base.vars {
				if _, set := vars[k]; !set {
					vars[k] = v
				}
			}
		} else {
			vars = copyVars(base.vars)
			setVars(&vars, hd.vars)
		}
		conn.over(hd.conn)
		if vars == nil {
			vars = map[string]cty.Value{}
		}
		addr := hd.address
		if addr == "" {
			// an ansible_host set on a group gives its hosts their address,
			// as in Ansible
			for _, k := range []string{"ansible_host", "ansible_ssh_host"} {
				if v, ok := vars[k]; ok && v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
					addr = v.AsString()
					delete(vars, k)
					break
				}
			}
		}
		if addr == "" {
			addr = hd.name
		}
		h := &Host{
			Name:       hd.name,
			Address:    addr,
			Connection: conn.c,
			Groups:     groups,
			Vars:       vars,
			DeclRange:  hd.rng,
		}
		inv.Hosts = append(inv.Hosts, h)
		inv.Groups["all"].Hosts = append(inv.Groups["all"].Hosts, h.Name)
		for _, gname := range groups {
			inv.Groups[gname].Hosts = append(inv.Groups[gname].Hosts, h.Name)
		}
	}
	inv.hostIndex = buildIndex(inv.Hosts)
	return inv, b.diags
}

// hostBase is what a host's resolution takes from the defaults and its
// groups, before the host's own connection settings and variables.
type hostBase struct {
	groups []string // every group of the host, sorted ("ungrouped" when none)
	conn   connDef
	vars   map[string]cty.Value
}

// hostBase resolves the groups, connection and variables a host with
// direct groups direct gets from the defaults and its groups: groups in
// precedence order (shallower first, then ansible_group_priority, then by
// name), every group's inventory settings before every group's
// group_vars/ files, as Ansible applies them.
func (b *builder) hostBase(direct []string, parents map[string][]string, depthOf func(string) int, prio map[string]int) *hostBase {
	groups := closure(direct, parents)
	if len(groups) == 0 {
		groups = []string{"ungrouped"}
	}
	order := append([]string(nil), groups...)
	sort.Slice(order, func(i, j int) bool {
		di, dj := depthOf(order[i]), depthOf(order[j])
		if di != dj {
			return di < dj
		}
		if pi, pj := prio[order[i]], prio[order[j]]; pi != pj {
			return pi < pj
		}
		return order[i] < order[j]
	})
	conn := b.defaults
	vars := copyVars(b.defaultVars)
	all := b.groups["all"]
	conn.over(all.conn)
	setVars(&vars, all.vars)
	for _, gname := range order {
		g := b.groups[gname]
		conn.over(g.conn)
		setVars(&vars, g.vars)
	}
	// as Ansible: every group's group_vars/ after every group's
	// inventory variables, "all" first, then in the same order
	conn.over(all.fileConn)
	setVars(&vars, all.fileVars)
	for _, gname := range order {
		g := b.groups[gname]
		conn.over(g.fileConn)
		setVars(&vars, g.fileVars)
	}
	return &hostBase{groups: groups, conn: conn, vars: vars}
}

// closure returns the sorted set of direct groups and all their ancestors,
// without "all" and "ungrouped".
func closure(direct []string, parents map[string][]string) []string {
	seen := map[string]bool{}
	stack := append([]string(nil), direct...)
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[g] || g == "all" {
			continue
		}
		seen[g] = true
		stack = append(stack, parents[g]...)
	}
	out := make([]string, 0, len(seen))
	for g := range seen {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// checkCycles reports the first child edge that closes each cycle.
func (b *builder) checkCycles() {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var path []string
	var visit func(name string)
	visit = func(name string) {
		color[name] = grey
		path = append(path, name)
		g := b.groups[name]
		for i, c := range g.children {
			switch color[c] {
			case white:
				visit(c)
			case grey:
				start := 0
				for j, p := range path {
					if p == c {
						start = j
					}
				}
				cycle := append(append([]string(nil), path[start:]...), c)
				b.errorf(g.childRanges[i], "Group cycle", "Groups form a cycle: %s.", strings.Join(cycle, " -> "))
			}
		}
		path = path[:len(path)-1]
		color[name] = black
	}
	for _, name := range b.groupOrder {
		if color[name] == white {
			visit(name)
		}
	}
}

func copyVars(m map[string]cty.Value) map[string]cty.Value {
	if m == nil {
		return nil
	}
	out := make(map[string]cty.Value, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// describeRange formats a range as "file:line" for details.
func describeRange(r hcl.Range) string {
	return fmt.Sprintf("%s:%d", r.Filename, r.Start.Line)
}

// onlyAll reports whether a group's parents are at most "all".
func onlyAll(parents []string) bool {
	for _, p := range parents {
		if p != "all" {
			return false
		}
	}
	return true
}
