package ibstat

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Result is what `ibstat` printed.
type Result struct {
	// NoDevice is true when ibstat listed no CA: it prints nothing (exit 0)
	// on a host without HCA or without the umad module.
	NoDevice bool `json:"no_device"`
	// Message holds the ibwarn/ibpanic text ibstat printed instead of CAs.
	Message string `json:"message,omitempty"`
	CAs     []CA   `json:"cas"`
	// Warnings are ibwarn lines printed next to CA blocks.
	Warnings []string `json:"warnings,omitempty"`
}

// CA is one channel adapter block ("CA 'mlx5_0'").
type CA struct {
	Name            string `json:"name"`
	NodeType        string `json:"node_type"` // "CA", "Switch", "Router"
	Type            string `json:"ca_type,omitempty"`
	NumPorts        int    `json:"num_ports,omitempty"`
	Firmware        string `json:"firmware,omitempty"`
	Hardware        string `json:"hardware,omitempty"`
	NodeGUID        string `json:"node_guid,omitempty"`
	SystemImageGUID string `json:"system_image_guid,omitempty"`
	Ports           []Port `json:"ports"`
}

// Port is one "Port N:" block of a CA.
type Port struct {
	Number        int    `json:"port"`
	State         string `json:"state"`          // Down, Initializing, Armed, Active
	PhysicalState string `json:"physical_state"` // Polling, Disabled, LinkUp, ...
	// Rate is the link rate in Gb/s (2.5 for 1x SDR).
	Rate float64 `json:"rate_gbps"`
	// RateNote is the bracketed note after the rate, e.g. "FDR10".
	RateNote       string `json:"rate_note,omitempty"`
	BaseLID        int    `json:"base_lid"`
	LMC            int    `json:"lmc"`
	SMLID          int    `json:"sm_lid"`
	CapabilityMask string `json:"capability_mask,omitempty"`
	PortGUID       string `json:"port_guid,omitempty"`
	LinkLayer      string `json:"link_layer,omitempty"` // InfiniBand, Ethernet
}

// Active reports whether the logical port state is Active.
func (p Port) Active() bool { return strings.EqualFold(p.State, "Active") }

// LinkUp reports whether the physical port state is LinkUp.
func (p Port) LinkUp() bool { return strings.EqualFold(p.PhysicalState, "LinkUp") }

// Ports returns every port of every CA, in output order.
func (r *Result) Ports() []Port {
	var out []Port
	for _, ca := range r.CAs {
		out = append(out, ca.Ports...)
	}
	return out
}

// Port returns port number of the CA called ca.
func (r *Result) Port(ca string, number int) (Port, bool) {
	for _, c := range r.CAs {
		if c.Name != ca {
			continue
		}
		for _, p := range c.Ports {
			if p.Number == number {
				return p, true
			}
		}
	}
	return Port{}, false
}

const tool = "ibstat"

var (
	caHeader   = lazyre.New(`^(CA|Switch|Router|iWARP RNIC|\?\?\?):? '([^']*)'$`)
	portHeader = lazyre.New(`^Port (\S+):$`)
	rateValue  = lazyre.New(`^([0-9]+(?:\.[0-9]+)?)(?:\s*\(([^)]*)\))?$`)
)

// isDiag reports whether line is a diagnostic printed by the infiniband-diags
// library (ibwarn/ibpanic/iberror) rather than CA data.
func isDiag(line string) bool {
	return strings.HasPrefix(line, "ibwarn:") || strings.HasPrefix(line, "ibpanic:") ||
		strings.Contains(line, "iberror:")
}

// Parse reads `ibstat` or `ibstat CA [PORT]` output.
func Parse(data []byte) (*Result, error) {
	if err := parse.Complete("ibstat", data); err != nil {
		return nil, err
	}
	res := &Result{CAs: []CA{}}
	var ca *CA
	var port *Port
	var diags []string
	for i, raw := range text.Lines(data) {
		n := i + 1
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if isDiag(line) {
			diags = append(diags, line)
			continue
		}
		if m := caHeader.FindStringSubmatch(line); m != nil {
			for _, c := range res.CAs {
				if c.Name == m[2] {
					return nil, &parse.Error{Tool: tool, Line: n, Text: raw, Reason: "CA " + m[2] + " listed a second time (two outputs run together?)"}
				}
			}
			res.CAs = append(res.CAs, CA{Name: m[2], NodeType: m[1], Ports: []Port{}})
			ca, port = &res.CAs[len(res.CAs)-1], nil
			continue
		}
		if ca == nil {
			return nil, &parse.Error{Tool: tool, Line: n, Text: raw, Reason: "expected a CA header like CA 'mlx5_0'"}
		}
		if m := portHeader.FindStringSubmatch(line); m != nil {
			num, err := strconv.Atoi(m[1])
			if err != nil || num < 0 {
				return nil, &parse.Error{Tool: tool, Line: n, Text: raw, Reason: "port number is not a number"}
			}
			ca.Ports = append(ca.Ports, Port{Number: num})
			port = &ca.Ports[len(ca.Ports)-1]
			continue
		}
		label, value, ok := cutLabel(line)
		if !ok {
			return nil, &parse.Error{Tool: tool, Line: n, Text: raw, Reason: "expected 'Label: value'"}
		}
		if reason := setField(ca, port, label, value); reason != "" {
			return nil, &parse.Error{Tool: tool, Line: n, Text: raw, Reason: reason}
		}
	}
	if len(res.CAs) == 0 {
		res.NoDevice = true
		res.Message = strings.Join(diags, "\n")
	} else {
		res.Warnings = diags
	}
	return res, nil
}

// setField stores one labelled value in the CA or, inside a port block, the
// port. It returns a reason when a value that must be a number is not.
// Unknown labels are ignored: newer ibstat versions add lines.
func setField(ca *CA, port *Port, label, value string) string {
	if port != nil {
		switch strings.ToLower(label) {
		case "state":
			port.State = value
		case "physical state":
			port.PhysicalState = value
		case "rate":
			m := rateValue.FindStringSubmatch(value)
			if m == nil {
				return "rate is not a number"
			}
			port.Rate, _ = strconv.ParseFloat(m[1], 64)
			port.RateNote = m[2]
		case "base lid":
			return text.IntInto(value, &port.BaseLID, "base lid")
		case "lmc":
			return text.IntInto(value, &port.LMC, "LMC")
		case "sm lid":
			return text.IntInto(value, &port.SMLID, "SM lid")
		case "capability mask":
			port.CapabilityMask = value
		case "port guid":
			port.PortGUID = value
		case "link layer":
			port.LinkLayer = value
		}
		return ""
	}
	switch strings.ToLower(label) {
	case "ca type":
		ca.Type = value
	case "number of ports":
		return text.IntInto(value, &ca.NumPorts, "number of ports")
	case "firmware version":
		ca.Firmware = value
	case "hardware version":
		ca.Hardware = value
	case "node guid":
		ca.NodeGUID = value
	case "system image guid":
		ca.SystemImageGUID = value
	}
	return ""
}
