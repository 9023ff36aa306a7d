package inventory

// Names returns every host name in inventory order.
func (inv *Inventory) Names() []string {
	out := make([]string, len(inv.Hosts))
	for i, h := range inv.Hosts {
		out[i] = h.Name
	}
	return out
}

// SelectNames is Select returning host names.
func (inv *Inventory) SelectNames(pattern string) ([]string, error) {
	hs, err := inv.Select(pattern)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Name
	}
	return out, nil
}
