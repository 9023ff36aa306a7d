package nvme

import "sort"

// ListSubsys is what "nvme list-subsys" (and "nvme show-topology") shows:
// the NVMe subsystems and the controller paths to each.
type ListSubsys struct {
	Subsystems []Subsystem `json:"subsystems"`
	// Empty is true when the command printed nothing (no subsystem
	// connected): nvme-cli's empty form, not output prova failed to read.
	Empty bool `json:"empty,omitempty"`
}

// Subsystem is one NVMe subsystem as seen by one host.
type Subsystem struct {
	Name       string      `json:"name"` // nvme-subsys0
	NQN        string      `json:"nqn"`
	HostNQN    string      `json:"host_nqn,omitempty"`
	HostID     string      `json:"host_id,omitempty"`
	IOPolicy   string      `json:"iopolicy,omitempty"`
	Paths      []Path      `json:"paths"`
	Namespaces []Namespace `json:"namespaces,omitempty"` // show-topology only
}

// Namespace is a namespace with the paths that reach it (show-topology).
type Namespace struct {
	NSID  int    `json:"nsid"`
	Paths []Path `json:"paths"`
}

// Path is one controller of a subsystem: how this host reaches it.
type Path struct {
	Name      string `json:"name"`      // nvme0
	Transport string `json:"transport"` // rdma, tcp, fc, pcie, loop
	Addr      string `json:"address"`   // as printed
	Address          // Addr split into traddr, trsvcid, host_traddr, src_addr ...
	State     string `json:"state,omitempty"`     // live, connecting, ...; empty in 2017 output
	ANAState  string `json:"ana_state,omitempty"` // optimized, non-optimized, ...; often absent
}

// Find returns the subsystems whose NQN is nqn (one per host).
func (l ListSubsys) Find(nqn string) []Subsystem {
	var out []Subsystem
	for _, s := range l.Subsystems {
		if s.NQN == nqn {
			out = append(out, s)
		}
	}
	return out
}

// Transports returns the distinct transports (sorted) of the paths to the
// subsystem nqn, e.g. ["rdma"] when every path uses RDMA, ["rdma","tcp"]
// when some fell back to TCP, nil when the subsystem is not connected.
func (l ListSubsys) Transports(nqn string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l.Find(nqn) {
		for _, p := range s.Paths {
			if !seen[p.Transport] {
				seen[p.Transport] = true
				out = append(out, p.Transport)
			}
		}
	}
	sort.Strings(out)
	return out
}

// addPath appends p to s.Paths unless a path with that name is there.
func (s *Subsystem) addPath(p Path) {
	for _, q := range s.Paths {
		if q.Name == p.Name {
			return
		}
	}
	s.Paths = append(s.Paths, p)
}
