package inventory

import (
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// groupPriorities takes ansible_group_priority out of the inventory
// variables of every group of an Ansible inventory, as Ansible does, and
// returns each group's priority (1 when not set): among groups of the same
// depth, a higher priority merges later and so wins. As in Ansible, one set
// in group_vars/ is an ordinary variable, and an HCL inventory has no such
// setting.
func (b *builder) groupPriorities() map[string]int {
	prio := map[string]int{}
	if !b.ansible {
		return prio
	}
	const key = "ansible_group_priority"
	for _, name := range b.groupOrder {
		g := b.groups[name]
		p := 1
		if v, ok := g.vars[key]; ok {
			delete(g.vars, key)
			n, ok := priorityOf(v)
			if !ok {
				b.errorf(g.rng, "Invalid value for "+key, "Group %q: %s must be a whole number (Ansible reads it with int()), got %s.", name, key, v.GoString())
			}
			p = n
		}
		prio[name] = p
	}
	return prio
}

// priorityOf is Python's int() of an inventory value: a number truncated
// toward zero, or a string of decimal digits.
func priorityOf(v cty.Value) (int, bool) {
	if v.IsNull() || !v.IsKnown() {
		return 0, false
	}
	if v.Type() == cty.String {
		n, err := cty.ParseNumberVal(v.AsString())
		if err != nil || !n.AsBigFloat().IsInt() {
			return 0, false
		}
		v = n
	}
	n, err := convert.Convert(v, cty.Number)
	if err != nil {
		return 0, false
	}
	f := n.AsBigFloat()
	if f.IsInf() {
		return 0, false
	}
	i, _ := f.Int(nil) // toward zero, as int(3.5) is 3
	if !i.IsInt64() || i.Int64() < -1<<31 || i.Int64() > 1<<31-1 {
		return 0, false
	}
	return int(i.Int64()), true
}
