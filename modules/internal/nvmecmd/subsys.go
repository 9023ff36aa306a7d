package nvmecmd

import (
	"context"
	"sort"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/nvme"
)

// State is what list-subsys showed on one host.
type State struct {
	Subsys *nvme.ListSubsys
	// NoDriver is true when nvme-cli said the nvme driver is not loaded:
	// nothing can be connected then.
	NoDriver bool
	// Evidence maps each command run to what it printed.
	Evidence map[string]string
}

// Path is one controller of a subsystem as the modules output it.
type Path struct {
	Controller string `cty:"controller"`
	Transport  string `cty:"transport"`
	Traddr     string `cty:"traddr"`
	Trsvcid    string `cty:"trsvcid"`
	State      string `cty:"state"`
}

// ReadState runs "nvme list-subsys -o json", falling back to the text form
// (nvme-cli 1.x without JSON for it, or output the JSON reader does not
// know). A host without the nvme driver has nothing connected.
func ReadState(ctx context.Context, h module.Host) (*State, error) {
	st := &State{Evidence: map[string]string{}}
	ls, jsonErr := st.listSubsys(ctx, h, "list-subsys", "-o", "json")
	if jsonErr == nil {
		st.Subsys = ls
		return st, nil
	}
	if ctx.Err() != nil || module.IsUnreachable(jsonErr) {
		return nil, jsonErr
	}
	ls, err := st.listSubsys(ctx, h, "list-subsys")
	if err != nil {
		return nil, err
	}
	st.Subsys = ls
	return st, nil
}

func (st *State) listSubsys(ctx context.Context, h module.Host, argv ...string) (*nvme.ListSubsys, error) {
	out, err := Run(ctx, h, argv...)
	if err != nil {
		return nil, err
	}
	st.Evidence[module.Command(append([]string{"nvme"}, argv...)...)] = out.Stdout + out.Stderr
	if out.RC != 0 {
		f := Classify(out)
		if f.Kind == nvme.NoDriver {
			st.NoDriver = true
			return &nvme.ListSubsys{Subsystems: []nvme.Subsystem{}}, nil
		}
		return nil, Failed(h, "nvme list-subsys", f)
	}
	ls, err := nvme.ParseListSubsys([]byte(out.Stdout))
	if err != nil {
		return nil, ParseFailed(h, err)
	}
	return ls, nil
}

// Paths returns the controllers of subsystem nqn, those over transport
// only when transport is not empty, sorted by controller name.
func (st *State) Paths(nqn, transport string) []Path {
	out := []Path{}
	for _, s := range st.Subsys.Find(nqn) {
		for _, p := range s.Paths {
			if transport != "" && p.Transport != transport {
				continue
			}
			out = append(out, Path{Controller: p.Name, Transport: p.Transport, Traddr: p.Traddr,
				Trsvcid: p.Trsvcid, State: p.State})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Controller < out[j].Controller })
	return out
}

// Connected returns the controllers of nqn that reach t (same transport and
// address; same port when list-subsys printed one).
func (st *State) Connected(nqn string, t Target) []Path {
	var out []Path
	for _, p := range st.Paths(nqn, t.Transport) {
		if p.Traddr != t.Address {
			continue
		}
		if p.Trsvcid != "" && p.Trsvcid != itoa(t.Port) {
			continue
		}
		out = append(out, p)
	}
	return out
}

// Transport is the transports of the paths to nqn joined with ",": "rdma",
// "tcp", "rdma,tcp" when both are in use, "" when not connected.
func (st *State) Transport(nqn string) string {
	ts := st.Subsys.Transports(nqn)
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ","
		}
		s += t
	}
	return s
}

// SubsystemNames returns the names (nvme-subsysN) of the subsystems nqn.
func (st *State) SubsystemNames(nqn string) []string {
	var out []string
	for _, s := range st.Subsys.Find(nqn) {
		out = append(out, s.Name)
	}
	return out
}
