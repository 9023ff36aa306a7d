package lspci

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Device is one device block of lspci -vvv.
type Device struct {
	// Address is domain:bus:device.function, with domain 0000 added when
	// lspci printed none (without -D).
	Address     string `json:"address"`
	Class       string `json:"class"` // "PCI bridge", "3D controller", "Infiniband controller"
	Description string `json:"description"`
	// Secondary and Subordinate are a bridge's bus range (nil otherwise).
	Secondary   *int `json:"secondary,omitempty"`
	Subordinate *int `json:"subordinate,omitempty"`
	// ACSCtl holds the ACS control bits (SrcValid, ReqRedir, CmpltRedir,
	// ...) when the device has the ACS capability; nil otherwise.
	ACSCtl map[string]bool `json:"acs_ctl,omitempty"`
	// CapabilitiesDenied is set when lspci could not read the capabilities
	// (not run as root): ACS cannot be known.
	CapabilitiesDenied bool `json:"capabilities_denied,omitempty"`
}

// Bus is the device's bus number.
func (d Device) Bus() int {
	f := strings.Split(d.Address, ":")
	n, _ := strconv.ParseUint(f[1], 16, 8)
	return int(n)
}

// Domain is the device's PCI domain ("0000").
func (d Device) Domain() string { return strings.SplitN(d.Address, ":", 2)[0] }

// Redirects reports whether ACS redirects peer-to-peer requests or
// completions upstream at this port (ReqRedir+ or CmpltRedir+): traffic
// between two devices below it goes up to the root complex.
func (d Device) Redirects() bool { return d.ACSCtl["ReqRedir"] || d.ACSCtl["CmpltRedir"] }

// Devices is the output of lspci -vvv.
type Devices struct {
	Devices []Device `json:"devices"`
}

// Find returns the device at address ("0000:17:00.0" or "17:00.0").
func (r *Devices) Find(address string) (Device, bool) {
	a := normalize(address)
	for _, d := range r.Devices {
		if d.Address == a {
			return d, true
		}
	}
	return Device{}, false
}

// Ancestors are the bridges whose bus range holds address's bus (the
// ports above it), in the order lspci printed them.
func (r *Devices) Ancestors(address string) []Device {
	d, ok := r.Find(address)
	if !ok {
		return nil
	}
	var out []Device
	for _, b := range r.Devices {
		if b.Secondary == nil || b.Subordinate == nil || b.Domain() != d.Domain() || b.Address == d.Address {
			continue
		}
		if *b.Secondary <= d.Bus() && d.Bus() <= *b.Subordinate {
			out = append(out, b)
		}
	}
	return out
}

// Between are the bridges on the path from a to b below their nearest
// common bridge: the ports where a peer-to-peer transfer between them
// enters the switch (and where ACS can redirect it).
func (r *Devices) Between(a, b string) []Device {
	inA := map[string]bool{}
	for _, x := range r.Ancestors(a) {
		inA[x.Address] = true
	}
	inB := map[string]bool{}
	for _, x := range r.Ancestors(b) {
		inB[x.Address] = true
	}
	var out []Device
	for _, x := range r.Devices {
		if inA[x.Address] != inB[x.Address] {
			out = append(out, x)
		}
	}
	return out
}

var (
	headerRe = lazyre.New(`^((?:[0-9a-fA-F]{4}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]) ([^:]+?)(?: \[[0-9a-f]{4}\])?: (.*)$`)
	busRe    = lazyre.New(`^Bus: primary=([0-9a-fA-F]{2}), secondary=([0-9a-fA-F]{2}), subordinate=([0-9a-fA-F]{2})`)
	flagRe   = lazyre.New(`^([A-Za-z0-9_]+)([+-])$`)
)

func normalize(a string) string {
	a = strings.ToLower(strings.TrimSpace(a))
	if strings.Count(a, ":") == 1 {
		a = "0000:" + a
	}
	if f := strings.SplitN(a, ":", 2); len(f[0]) == 8 { // nvidia-smi's 00000000:17:00.0
		a = f[0][4:] + ":" + f[1]
	}
	return a
}

// ParseVerbose reads lspci -vvv. Nothing printed is an error: lspci has
// no empty form (it prints nothing when it finds no device), so
// nothing printed leaves no device to look up and none is assumed. A device address listed twice is two outputs run together
// (lspci lists each function once): an error too.
func ParseVerbose(data []byte) (*Devices, error) {
	const tool = "lspci -vvv"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	if text.Blank(data) {
		return nil, &parse.Error{Tool: tool, Reason: "printed nothing: no PCI device listed"}
	}
	r := &Devices{Devices: []Device{}}
	var cur *Device
	seen := map[string]bool{}
	for i, raw := range text.Lines(data) {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		if !strings.HasPrefix(raw, "\t") && !strings.HasPrefix(raw, " ") {
			m := headerRe.FindStringSubmatch(raw)
			if m == nil {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected a device line 'BB:DD.F Class: Description'"}
			}
			d := Device{Address: normalize(m[1]), Class: m[2], Description: m[3]}
			if seen[d.Address] {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "device " + d.Address + " listed a second time (two outputs run together?)"}
			}
			seen[d.Address] = true
			r.Devices = append(r.Devices, d)
			cur = &r.Devices[len(r.Devices)-1]
			continue
		}
		if cur == nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "indented line before the first device"}
		}
		line := strings.TrimSpace(raw)
		switch {
		case busRe.MatchString(line):
			m := busRe.FindStringSubmatch(line)
			sec, _ := strconv.ParseUint(m[2], 16, 8)
			sub, _ := strconv.ParseUint(m[3], 16, 8)
			s, u := int(sec), int(sub)
			cur.Secondary, cur.Subordinate = &s, &u
		case strings.HasPrefix(line, "ACSCtl:"):
			cur.ACSCtl = map[string]bool{}
			for _, f := range strings.Fields(strings.TrimPrefix(line, "ACSCtl:")) {
				m := flagRe.FindStringSubmatch(f)
				if m == nil {
					return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "ACSCtl flag " + strconv.Quote(f) + " is not Name+ or Name-"}
				}
				cur.ACSCtl[m[1]] = m[2] == "+"
			}
		case strings.HasPrefix(line, "Capabilities: <access denied>"):
			cur.CapabilitiesDenied = true
		}
	}
	return r, nil
}

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{{Name: "lspci-vvv", Command: "lspci -vvv -D", Parse: parse.Typed(ParseVerbose)}}
}
