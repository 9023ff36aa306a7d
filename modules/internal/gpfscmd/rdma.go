package gpfscmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/ibdev2netdev"
	"github.com/provadev/prova/parse/ibstat"
)

// PortsState is what ibstat and ibdev2netdev said on one host.
type PortsState struct {
	Ibstat          *ibstat.Result
	IbstatRaw       string
	Netdevs         *ibdev2netdev.Result
	Ibdev2netdevRaw string
	// NetdevsRead is false when ibdev2netdev is not installed.
	NetdevsRead bool
}

// ReadPorts runs ibstat and ibdev2netdev on h. A parse error names the tool,
// the line and the host.
func ReadPorts(ctx context.Context, h module.Host) (*PortsState, error) {
	out, err := Run(ctx, h, "ibstat", "ibstat")
	if err != nil {
		return nil, err
	}
	st := &PortsState{IbstatRaw: out.Stdout, Netdevs: &ibdev2netdev.Result{NoDevice: true}}
	if st.Ibstat, err = ibstat.Parse([]byte(out.Stdout)); err != nil {
		return nil, ParseFailure(h, err)
	}
	out, err = Probe(ctx, h, "ibdev2netdev")
	if err != nil {
		return nil, err
	}
	if NotInstalled(out) {
		return st, nil
	}
	if out.RC != 0 {
		return nil, Failure(h, "ibdev2netdev", out)
	}
	st.NetdevsRead, st.Ibdev2netdevRaw = true, out.Stdout
	if st.Netdevs, err = ibdev2netdev.Parse([]byte(out.Stdout)); err != nil {
		return nil, ParseFailure(h, err)
	}
	return st, nil
}

// PortState is "State/PhysicalState" of the port spec names, or "absent".
func (s *PortsState) PortState(spec string) string {
	p, err := ParsePort(spec)
	if err != nil {
		return "invalid"
	}
	pt, ok := s.Ibstat.Port(p.Device, p.Port)
	if !ok {
		return "absent"
	}
	return pt.State + "/" + pt.PhysicalState
}

// Kinds of port problems PortIssue reports.
const (
	PortMissing = "missing" // no such device or port, or no HCA at all
	PortDown    = "down"    // exists but is not Active and LinkUp
)

// PortProblem says why the port spec names is not usable, or "" when it
// exists and is Active and LinkUp.
func (s *PortsState) PortProblem(spec string) string {
	_, why := s.PortIssue(spec)
	return why
}

// PortIssue is PortProblem with its kind: PortMissing or PortDown ("" when
// the port is fine; an invalid spec counts as missing).
func (s *PortsState) PortIssue(spec string) (kind, why string) {
	p, err := ParsePort(spec)
	if err != nil {
		return PortMissing, err.Error()
	}
	if s.Ibstat.NoDevice {
		return PortMissing, fmt.Sprintf("%s: the host has no HCA", spec)
	}
	var ports []string
	found := false
	for _, ca := range s.Ibstat.CAs {
		if ca.Name != p.Device {
			continue
		}
		found = true
		for _, pt := range ca.Ports {
			ports = append(ports, fmt.Sprint(pt.Number))
		}
	}
	if !found {
		var names []string
		for _, ca := range s.Ibstat.CAs {
			names = append(names, ca.Name)
		}
		return PortMissing, fmt.Sprintf("%s: no device %s (devices: %s)", spec, p.Device, strings.Join(names, ", "))
	}
	pt, ok := s.Ibstat.Port(p.Device, p.Port)
	if !ok {
		return PortMissing, fmt.Sprintf("%s: %s has no port %d (ports: %s)", spec, p.Device, p.Port, strings.Join(ports, ", "))
	}
	if !pt.Active() || !pt.LinkUp() {
		return PortDown, fmt.Sprintf("%s: port is %s, physical state %s", spec, pt.State, pt.PhysicalState)
	}
	return "", ""
}
