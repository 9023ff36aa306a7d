package ibvdevinfo

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Result is what `ibv_devinfo [-v] [-d dev]` printed.
type Result struct {
	NoDevice bool     `json:"no_device"`
	Message  string   `json:"message,omitempty"`
	Devices  []Device `json:"devices"`
}

// Device is one "hca_id:" block.
type Device struct {
	Name          string `json:"hca_id"`
	Transport     string `json:"transport,omitempty"` // "InfiniBand"
	TransportCode int    `json:"transport_code"`
	Firmware      string `json:"fw_ver,omitempty"`
	NodeGUID      string `json:"node_guid,omitempty"`
	SysImageGUID  string `json:"sys_image_guid,omitempty"`
	VendorID      string `json:"vendor_id,omitempty"`
	VendorPartID  int    `json:"vendor_part_id"`
	HWVersion     string `json:"hw_ver,omitempty"`
	BoardID       string `json:"board_id,omitempty"`
	PhysPortCount int    `json:"phys_port_cnt"`
	// Attributes holds the other one-level "key: value" lines (mostly
	// from -v), as printed.
	Attributes map[string]string `json:"attributes,omitempty"`
	Ports      []Port            `json:"ports"`
}

// Port is one "port: N" section.
type Port struct {
	Number    int    `json:"port"`
	State     string `json:"state"` // PORT_ACTIVE, PORT_DOWN, PORT_INIT, PORT_ARMED
	StateCode int    `json:"state_code"`
	MaxMTU    int    `json:"max_mtu"`    // bytes
	ActiveMTU int    `json:"active_mtu"` // bytes
	SMLID     int    `json:"sm_lid"`
	PortLID   int    `json:"port_lid"`
	PortLMC   string `json:"port_lmc,omitempty"`
	LinkLayer string `json:"link_layer,omitempty"` // InfiniBand, Ethernet

	// Printed by -v only.
	ActiveWidth   string `json:"active_width,omitempty"` // "4X"
	ActiveSpeed   string `json:"active_speed,omitempty"` // "25.0 Gbps", "EDR"
	PhysState     string `json:"phys_state,omitempty"`   // "LINK_UP"
	PhysStateCode int    `json:"phys_state_code,omitempty"`
	GIDs          []GID  `json:"gids,omitempty"`
	// Attributes holds the other "key: value" lines of the port section.
	Attributes map[string]string `json:"attributes,omitempty"`
}

// GID is one "GID[ N]: <gid>[, RoCE v2]" line of -v.
type GID struct {
	Index int    `json:"index"`
	GID   string `json:"gid"`
	Type  string `json:"type,omitempty"` // "RoCE v1", "RoCE v2"
}

// Active reports whether the port state is PORT_ACTIVE.
func (p Port) Active() bool { return p.StateCode == 4 }

const devinfoTool = "ibv_devinfo"

var gidLine = lazyre.New(`^GID\[\s*(\d+)\]:\s*([^,\s]+)(?:,\s*(.+))?$`)

// Parse reads ibv_devinfo output.
func Parse(data []byte) (*Result, error) {
	if err := parse.Complete("ibv_devinfo", data); err != nil {
		return nil, err
	}
	res := &Result{Devices: []Device{}}
	var dev *Device
	var port *Port
	var msgs []string
	for i, raw := range text.Lines(data) {
		n := i + 1
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		fail := func(reason string) error {
			return &parse.Error{Tool: devinfoTool, Line: n, Text: raw, Reason: reason}
		}
		if noDeviceText(line) || strings.HasPrefix(line, "libibverbs: Warning") {
			msgs = append(msgs, line)
			continue
		}
		key, value, hasColon := strings.Cut(line, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch {
		case hasColon && key == "hca_id":
			if value == "" {
				return nil, fail("hca_id without a name")
			}
			for _, d := range res.Devices {
				if d.Name == value {
					return nil, fail("hca_id " + value + " listed a second time (two outputs run together?)")
				}
			}
			res.Devices = append(res.Devices, Device{Name: value, Ports: []Port{}})
			dev, port = &res.Devices[len(res.Devices)-1], nil
			continue
		case dev == nil:
			return nil, fail("expected 'hca_id:' before device data")
		case hasColon && key == "port":
			num, err := strconv.Atoi(value)
			if err != nil {
				return nil, fail("port number is not a number")
			}
			dev.Ports = append(dev.Ports, Port{Number: num})
			port = &dev.Ports[len(dev.Ports)-1]
			continue
		case port != nil:
			if m := gidLine.FindStringSubmatch(line); m != nil {
				idx, _ := strconv.Atoi(m[1])
				port.GIDs = append(port.GIDs, GID{Index: idx, GID: m[2], Type: m[3]})
				continue
			}
			if !hasColon || key == "" {
				return nil, fail("expected 'key: value' in port section")
			}
			if reason := setPortField(port, key, value); reason != "" {
				return nil, fail(reason)
			}
			continue
		}
		// Device section: tolerant, -v prints nested capability lists.
		if hasColon && key != "" && value != "" {
			if reason := setDeviceField(dev, key, value); reason != "" {
				return nil, fail(reason)
			}
		}
	}
	if len(res.Devices) == 0 {
		res.NoDevice = true
	}
	res.Message = strings.Join(msgs, "\n")
	return res, nil
}

func setDeviceField(d *Device, key, value string) string {
	switch key {
	case "transport":
		name, code, ok := coded(value)
		if !ok {
			return "transport is not '<name> (<n>)'"
		}
		d.Transport, d.TransportCode = name, code
	case "fw_ver":
		d.Firmware = value
	case "node_guid":
		d.NodeGUID = value
	case "sys_image_guid":
		d.SysImageGUID = value
	case "vendor_id":
		d.VendorID = value
	case "vendor_part_id":
		return text.IntInto(value, &d.VendorPartID, "vendor_part_id")
	case "hw_ver":
		d.HWVersion = value
	case "board_id":
		d.BoardID = value
	case "phys_port_cnt":
		return text.IntInto(value, &d.PhysPortCount, "phys_port_cnt")
	default:
		if d.Attributes == nil {
			d.Attributes = map[string]string{}
		}
		d.Attributes[key] = value
	}
	return ""
}

func setPortField(p *Port, key, value string) string {
	switch key {
	case "state":
		name, code, ok := coded(value)
		if !ok {
			return "state is not '<name> (<n>)'"
		}
		p.State, p.StateCode = name, code
	case "max_mtu":
		return mtu(value, &p.MaxMTU, key)
	case "active_mtu":
		return mtu(value, &p.ActiveMTU, key)
	case "sm_lid":
		return text.IntInto(value, &p.SMLID, key)
	case "port_lid":
		return text.IntInto(value, &p.PortLID, key)
	case "port_lmc":
		p.PortLMC = value
	case "link_layer":
		p.LinkLayer = value
	case "active_width":
		p.ActiveWidth = stripCode(value)
	case "active_speed":
		p.ActiveSpeed = stripCode(value)
	case "phys_state":
		name, code, ok := coded(value)
		if !ok {
			return "phys_state is not '<name> (<n>)'"
		}
		p.PhysState, p.PhysStateCode = name, code
	default:
		if p.Attributes == nil {
			p.Attributes = map[string]string{}
		}
		p.Attributes[key] = value
	}
	return ""
}

// mtu reads "4096 (5)".
func mtu(value string, dst *int, what string) string {
	name, _, ok := coded(value)
	if !ok {
		name = value
	}
	return text.IntInto(name, dst, what)
}

func stripCode(value string) string {
	if name, _, ok := coded(value); ok {
		return name
	}
	return value
}
