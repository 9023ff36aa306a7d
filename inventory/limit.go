package inventory

// Limit returns an inventory holding only the hosts that match pattern (see
// Select), as for --limit. Every group is kept, with its host list reduced to
// the remaining hosts; a group may end up empty. Host values are shared with
// inv.
func (inv *Inventory) Limit(pattern string) (*Inventory, error) {
	hosts, err := inv.Select(pattern)
	if err != nil {
		return nil, err
	}
	keep := make(map[string]bool, len(hosts))
	for _, h := range hosts {
		keep[h.Name] = true
	}
	out := &Inventory{
		Hosts:     hosts,
		Groups:    make(map[string]*Group, len(inv.Groups)),
		Defaults:  inv.Defaults,
		Files:     append([]string(nil), inv.Files...),
		Hash:      inv.Hash,
		GPFS:      inv.GPFS,
		GPFSFound: inv.GPFSFound,
		hostIndex: buildIndex(hosts),
	}
	for name, g := range inv.Groups {
		ng := *g
		ng.Hosts = nil
		for _, h := range g.Hosts {
			if keep[h] {
				ng.Hosts = append(ng.Hosts, h)
			}
		}
		ng.Children = append([]string(nil), g.Children...)
		out.Groups[name] = &ng
	}
	return out, nil
}
