package ibdev2netdev

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Result is what ibdev2netdev printed.
type Result struct {
	// NoDevice is true when ibdev2netdev printed no mapping at all.
	NoDevice bool      `json:"no_device"`
	Mappings []Mapping `json:"mappings"`
}

// Mapping is one "<ibdev> port <n> ==> <netdev> (<state>)" line.
type Mapping struct {
	Device string `json:"device"`
	Port   int    `json:"port"`
	Netdev string `json:"netdev"`
	// NetdevState is the carrier state of the netdev: "Up", "Down" or "NA".
	NetdevState string `json:"netdev_state,omitempty"`

	// The fields below are only printed by `ibdev2netdev -v`.
	Verbose  bool   `json:"verbose"`
	PCI      string `json:"pci,omitempty"`       // "0000:02:00.0"
	DeviceID string `json:"device_id,omitempty"` // "MT4115" (MT4116 = ConnectX-4 VF)
	PartID   string `json:"part_id,omitempty"`   // PSID/serial from VPD, "NA" for VFs
	Board    string `json:"board,omitempty"`     // "CX456A - ConnectX-4 QSFP"
	Firmware string `json:"firmware,omitempty"`
	// PortState is the RDMA logical port state ("ACTIVE", "DOWN"); it can
	// disagree with NetdevState.
	PortState string `json:"port_state,omitempty"`
}

// Up reports whether the netdev's carrier is up.
func (m Mapping) Up() bool { return m.NetdevState == "Up" }

// Netdev returns the netdev mapped to port of device.
func (r *Result) Netdev(device string, port int) (Mapping, bool) {
	for _, m := range r.Mappings {
		if m.Device == device && m.Port == port {
			return m, true
		}
	}
	return Mapping{}, false
}

const tool = "ibdev2netdev"

var (
	plainLine   = lazyre.New(`^(\S+)\s+port\s+(\d+)\s+==>\s+(\S+)(?:\s+\(([^)]*)\))?$`)
	verboseLine = lazyre.New(`^(\S+)\s+(\S+)\s+\((\S+)\s+-\s+([^)]*)\)(.*)\bfw\s+(\S+)\s+port\s+(\d+)\s+\(([^)]*)\)\s+==>\s+(\S+)(?:\s+\(([^)]*)\))?$`)
)

// Parse reads `ibdev2netdev` or `ibdev2netdev -v` output.
func Parse(data []byte) (*Result, error) {
	if err := parse.Complete("ibdev2netdev", data); err != nil {
		return nil, err
	}
	res := &Result{Mappings: []Mapping{}}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		m, ok := parseLine(line)
		if !ok {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected '<ibdev> port <n> ==> <netdev> (<state>)'"}
		}
		for _, o := range res.Mappings {
			if o.Device == m.Device && o.Port == m.Port {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "device " + m.Device + " port listed a second time (two outputs run together?)"}
			}
		}
		res.Mappings = append(res.Mappings, m)
	}
	res.NoDevice = len(res.Mappings) == 0
	return res, nil
}

func parseLine(line string) (Mapping, bool) {
	if g := plainLine.FindStringSubmatch(line); g != nil {
		port, err := strconv.Atoi(g[2])
		if err != nil {
			return Mapping{}, false
		}
		return Mapping{Device: g[1], Port: port, Netdev: g[3], NetdevState: g[4]}, true
	}
	g := verboseLine.FindStringSubmatch(line)
	if g == nil {
		return Mapping{}, false
	}
	port, err := strconv.Atoi(g[7])
	if err != nil {
		return Mapping{}, false
	}
	return Mapping{
		Verbose: true, PCI: g[1], Device: g[2], DeviceID: g[3], PartID: strings.TrimSpace(g[4]),
		Board: strings.TrimSpace(g[5]), Firmware: g[6], Port: port, PortState: strings.TrimSpace(g[8]),
		Netdev: g[9], NetdevState: g[10],
	}, true
}

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "ibdev2netdev", Command: "ibdev2netdev [-v]", Parse: func(b []byte) (any, error) { return Parse(b) }},
	}
}
