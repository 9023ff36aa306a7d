package sshconn

// ExplainJumps resolves each hop of t's ProxyJump chain as the pool will
// dial it, for `prova inventory --ssh`.
func (p *Pool) ExplainJumps(t Target) ([]Resolution, error) {
	if t.ProxyJump == "" {
		return nil, nil
	}
	hops, err := parseJump(t.ProxyJump)
	if err != nil {
		return nil, err
	}
	var out []Resolution
	for _, h := range hops {
		r, err := p.Explain(h)
		if err != nil {
			return out, err
		}
		for k, v := range r.Source {
			if v == "inventory" {
				r.Source[k] = "proxyjump " + t.ProxyJump // what the chain itself says
			}
		}
		out = append(out, r)
	}
	return out, nil
}
