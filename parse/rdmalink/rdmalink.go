package rdmalink

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Result is what `rdma link show` printed.
type Result struct {
	NoDevice bool   `json:"no_device"`
	Message  string `json:"message,omitempty"`
	Links    []Link `json:"links"`
}

// Link is one RDMA port.
type Link struct {
	Device        string `json:"device"` // "mlx5_0"
	Port          int    `json:"port"`
	IfIndex       int    `json:"ifindex,omitempty"` // JSON only
	State         string `json:"state,omitempty"`   // ACTIVE, DOWN, INIT, ARMED
	PhysicalState string `json:"physical_state,omitempty"`
	Netdev        string `json:"netdev,omitempty"`
	NetdevIndex   int    `json:"netdev_index,omitempty"`
	SubnetPrefix  string `json:"subnet_prefix,omitempty"` // InfiniBand ports
	LID           int    `json:"lid,omitempty"`
	SMLID         int    `json:"sm_lid,omitempty"`
	LMC           int    `json:"lmc,omitempty"`
}

// Active reports whether the port state is ACTIVE.
func (l Link) Active() bool { return l.State == "ACTIVE" }

// LinkUp reports whether the physical state is LINK_UP.
func (l Link) LinkUp() bool { return l.PhysicalState == "LINK_UP" }

// Link returns the link of device/port.
func (r *Result) Link(device string, port int) (Link, bool) {
	for _, l := range r.Links {
		if l.Device == device && l.Port == port {
			return l, true
		}
	}
	return Link{}, false
}

const (
	tool     = "rdma link show"
	jsonTool = "rdma -j link show"
)

// noRDMA reports whether line is one of rdma's "no RDMA here" errors.
func noRDMA(line string) bool {
	return strings.HasPrefix(line, "Failed to open NETLINK_RDMA socket") ||
		strings.HasPrefix(line, "Wrong device name")
}

// Parse reads text or JSON `rdma link show` output.
func Parse(data []byte) (*Result, error) {
	if err := parse.Complete("rdma link show", data); err != nil {
		return nil, err
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{') {
		return ParseJSON(data)
	}
	return ParseText(data)
}

// ParseText reads `rdma link [show]` text output.
func ParseText(data []byte) (*Result, error) {
	res := &Result{Links: []Link{}}
	var msgs []string
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			continue
		case noRDMA(line):
			msgs = append(msgs, line)
			continue
		case raw[0] == ' ' || raw[0] == '\t':
			continue // detail lines of -d (caps: <...>)
		}
		l, reason := parseTextLine(strings.Fields(line))
		if reason != "" {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: reason}
		}
		for _, o := range res.Links {
			if o.Device == l.Device && o.Port == l.Port {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "link " + l.Device + " listed a second time (two outputs run together?)"}
			}
		}
		res.Links = append(res.Links, l)
	}
	res.NoDevice = len(res.Links) == 0
	res.Message = strings.Join(msgs, "\n")
	return res, nil
}

func parseTextLine(f []string) (Link, string) {
	// Older iproute2 releases print "<ifindex>/<port>: <dev>/<port>: ..."
	// where newer ones print "link <dev>/<port> ...".
	if len(f) >= 2 && oldPrefix.MatchString(f[0]) && strings.HasSuffix(f[1], ":") {
		f = append([]string{"link", strings.TrimSuffix(f[1], ":")}, f[2:]...)
	}
	if len(f) < 2 || f[0] != "link" {
		return Link{}, "expected 'link <dev>/<port> ...' (or '<index>/<port>: <dev>/<port>: ...' of older iproute2)"
	}
	dev, portStr, ok := strings.Cut(f[1], "/")
	port, err := strconv.Atoi(portStr)
	if !ok || dev == "" || err != nil {
		return Link{}, "expected '<dev>/<port>' after 'link'"
	}
	l := Link{Device: dev, Port: port}
	rest := f[2:]
	if len(rest)%2 != 0 {
		return Link{}, "expected 'key value' pairs after the port"
	}
	for j := 0; j < len(rest); j += 2 {
		k, v := rest[j], rest[j+1]
		var reason string
		switch k {
		case "state":
			l.State = v
		case "physical_state":
			l.PhysicalState = v
		case "netdev":
			l.Netdev = v
		case "netdev_index":
			reason = text.IntInto(v, &l.NetdevIndex, k)
		case "subnet_prefix":
			l.SubnetPrefix = v
		case "lid":
			reason = text.IntInto(v, &l.LID, k)
		case "sm_lid":
			reason = text.IntInto(v, &l.SMLID, k)
		case "lmc":
			reason = text.IntInto(v, &l.LMC, k)
		}
		if reason != "" {
			return Link{}, reason
		}
	}
	return l, ""
}

// oldPrefix is the "<ifindex>/<port>:" that older iproute2 releases print
// first on each rdma link line.
var oldPrefix = lazyre.New(`^\d+/\d+:$`)

type jsonLink struct {
	IfIndex       int    `json:"ifindex"`
	IfName        string `json:"ifname"`
	Port          int    `json:"port"`
	SubnetPrefix  string `json:"subnet_prefix"`
	LID           int    `json:"lid"`
	SMLID         int    `json:"sm_lid"`
	LMC           int    `json:"lmc"`
	State         string `json:"state"`
	PhysicalState string `json:"physical_state"`
	Netdev        string `json:"netdev"`
	NetdevIndex   int    `json:"netdev_index"`
}

// ParseJSON reads `rdma -j [-p] link show` output. Plain error text (rdma
// prints it even with -j) is accepted as in ParseText.
func ParseJSON(data []byte) (*Result, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || (trimmed[0] != '[' && trimmed[0] != '{') {
		res, err := ParseText(data)
		if err != nil {
			var pe *parse.Error
			if errors.As(err, &pe) {
				pe.Tool, pe.Reason = jsonTool, "expected a JSON array"
			}
			return nil, err
		}
		if len(res.Links) > 0 {
			return nil, &parse.Error{Tool: jsonTool, Reason: "expected a JSON array, got text"}
		}
		return res, nil
	}
	var links []jsonLink
	if err := json.Unmarshal(data, &links); err != nil {
		return nil, &parse.Error{Tool: jsonTool, Line: jsonErrorLine(data, err), Reason: "invalid JSON: " + err.Error()}
	}
	res := &Result{Links: make([]Link, 0, len(links))}
	for i, j := range links {
		if j.IfName == "" {
			return nil, &parse.Error{Tool: jsonTool, Reason: "link " + strconv.Itoa(i) + " has no ifname"}
		}
		res.Links = append(res.Links, Link{
			Device: j.IfName, Port: j.Port, IfIndex: j.IfIndex, State: j.State, PhysicalState: j.PhysicalState,
			Netdev: j.Netdev, NetdevIndex: j.NetdevIndex, SubnetPrefix: j.SubnetPrefix, LID: j.LID, SMLID: j.SMLID, LMC: j.LMC,
		})
	}
	res.NoDevice = len(res.Links) == 0
	return res, nil
}

// jsonErrorLine returns the 1-based line of a JSON syntax or type error, or 0.
func jsonErrorLine(data []byte, err error) int {
	var off int64
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	default:
		return 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "rdma-link", Command: "rdma [-j] link show", Parse: func(b []byte) (any, error) { return Parse(b) }},
	}
}
