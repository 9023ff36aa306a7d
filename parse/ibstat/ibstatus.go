package ibstat

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// StatusResult is what the `ibstatus` script printed.
type StatusResult struct {
	// NoDevice is true when ibstatus printed "Fatal error: ..." (no device,
	// or the named device/port does not exist) or nothing at all.
	NoDevice bool         `json:"no_device"`
	Message  string       `json:"message,omitempty"`
	Ports    []StatusPort `json:"ports"`
}

// StatusPort is one "Infiniband device 'X' port N status:" block.
type StatusPort struct {
	Device     string `json:"device"`
	Port       int    `json:"port"`
	DefaultGID string `json:"default_gid,omitempty"`
	BaseLID    int    `json:"base_lid"` // printed in hex (0x9)
	SMLID      int    `json:"sm_lid"`
	// State is the logical state as printed ("ACTIVE", "DOWN", "INIT",
	// "ARMED"); StateCode its number (4 = active).
	State     string `json:"state"`
	StateCode int    `json:"state_code"`
	// PhysState is the physical state ("LinkUp", "Polling", "Disabled");
	// PhysStateCode its number (5 = LinkUp).
	PhysState     string `json:"phys_state"`
	PhysStateCode int    `json:"phys_state_code"`
	// Rate is the link rate in Gb/s; Width ("4X") and Speed ("EDR", "HDR")
	// come from the bracket after it and may be empty.
	Rate      float64 `json:"rate_gbps"`
	Width     string  `json:"width,omitempty"`
	Speed     string  `json:"speed,omitempty"`
	RateText  string  `json:"rate_text,omitempty"`
	LinkLayer string  `json:"link_layer,omitempty"`
}

// Active reports whether the logical port state is ACTIVE.
func (p StatusPort) Active() bool { return p.StateCode == 4 }

// LinkUp reports whether the physical state is LinkUp.
func (p StatusPort) LinkUp() bool { return p.PhysStateCode == 5 }

const statusTool = "ibstatus"

var (
	statusHeader = lazyre.New(`^Infiniband device '([^']*)' port (\d+) status:$`)
	codedValue   = lazyre.New(`^(\d+):\s*(\S.*)$`)
	statusRate   = lazyre.New(`^([0-9]+(?:\.[0-9]+)?) Gb/sec(?:\s*\((\S+)(?:\s+(.*))?\))?$`)
)

// ParseStatus reads `ibstatus [dev[:port]]` output.
func ParseStatus(data []byte) (*StatusResult, error) {
	if err := parse.Complete("ibstatus", data); err != nil {
		return nil, err
	}
	res := &StatusResult{Ports: []StatusPort{}}
	var port *StatusPort
	var fatal []string
	for i, raw := range text.Lines(data) {
		n := i + 1
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "Fatal error:") {
			fatal = append(fatal, line)
			continue
		}
		if m := statusHeader.FindStringSubmatch(line); m != nil {
			num, err := strconv.Atoi(m[2])
			if err != nil {
				return nil, &parse.Error{Tool: statusTool, Line: n, Text: raw, Reason: "port number is not a number"}
			}
			for _, p := range res.Ports {
				if p.Device == m[1] && p.Port == num {
					return nil, &parse.Error{Tool: statusTool, Line: n, Text: raw, Reason: "device " + m[1] + " port " + m[2] + " listed a second time (two outputs run together?)"}
				}
			}
			res.Ports = append(res.Ports, StatusPort{Device: m[1], Port: num})
			port = &res.Ports[len(res.Ports)-1]
			continue
		}
		if port == nil {
			return nil, &parse.Error{Tool: statusTool, Line: n, Text: raw, Reason: "expected \"Infiniband device 'X' port N status:\""}
		}
		label, value, ok := cutLabel(line)
		if !ok {
			return nil, &parse.Error{Tool: statusTool, Line: n, Text: raw, Reason: "expected 'label: value'"}
		}
		if reason := setStatusField(port, label, value); reason != "" {
			return nil, &parse.Error{Tool: statusTool, Line: n, Text: raw, Reason: reason}
		}
	}
	if len(res.Ports) == 0 {
		res.NoDevice = true
		res.Message = strings.Join(fatal, "\n")
	} else if len(fatal) > 0 {
		// ibstatus dev1 dev2 stops at the first missing device; keep what
		// it printed but do not hide the failure.
		res.Message = strings.Join(fatal, "\n")
	}
	return res, nil
}

func setStatusField(p *StatusPort, label, value string) string {
	switch strings.ToLower(label) {
	case "default gid":
		p.DefaultGID = value
	case "base lid":
		return hexInt(value, &p.BaseLID, "base lid")
	case "sm lid":
		return hexInt(value, &p.SMLID, "sm lid")
	case "state":
		return coded(value, &p.StateCode, &p.State, "state")
	case "phys state":
		return coded(value, &p.PhysStateCode, &p.PhysState, "phys state")
	case "rate":
		m := statusRate.FindStringSubmatch(value)
		if m == nil {
			return "rate is not '<number> Gb/sec (...)'"
		}
		p.Rate, _ = strconv.ParseFloat(m[1], 64)
		p.Width, p.Speed, p.RateText = m[2], m[3], value
	case "link_layer", "link layer":
		p.LinkLayer = value
	}
	return ""
}

// hexInt reads a LID as ibstatus prints it: "0x9" (hex) or plain decimal.
func hexInt(s string, dst *int, what string) string {
	base, digits := 10, s
	if h, ok := strings.CutPrefix(strings.ToLower(s), "0x"); ok {
		base, digits = 16, h
	}
	v, err := strconv.ParseInt(digits, base, 32)
	if err != nil {
		return what + " is not a number"
	}
	*dst = int(v)
	return ""
}

func coded(s string, code *int, name *string, what string) string {
	m := codedValue.FindStringSubmatch(s)
	if m == nil {
		return what + " is not '<number>: <name>'"
	}
	c, err := strconv.Atoi(m[1])
	if err != nil {
		return what + " code is not a number"
	}
	*code, *name = c, strings.TrimSpace(m[2])
	return ""
}
