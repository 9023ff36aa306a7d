package ibvdevinfo

import (
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// DevicesResult is what `ibv_devices` printed.
type DevicesResult struct {
	NoDevice bool           `json:"no_device"`
	Message  string         `json:"message,omitempty"`
	Devices  []ListedDevice `json:"devices"`
}

// ListedDevice is one row of ibv_devices.
type ListedDevice struct {
	Name     string `json:"device"`
	NodeGUID string `json:"node_guid"`
}

const devicesTool = "ibv_devices"

var (
	devicesHeader = lazyre.New(`^device\s+node GUID$`)
	dashes        = lazyre.New(`^-+\s+-+$`)
	hexGUID       = lazyre.New(`^[0-9a-fA-F]{16}$`)
)

// ParseDevices reads ibv_devices output.
func ParseDevices(data []byte) (*DevicesResult, error) {
	if err := parse.Complete("ibv_devices", data); err != nil {
		return nil, err
	}
	res := &DevicesResult{Devices: []ListedDevice{}}
	var msgs []string
	header := false
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		fail := func(reason string) error {
			return &parse.Error{Tool: devicesTool, Line: i + 1, Text: raw, Reason: reason}
		}
		switch {
		case line == "":
			continue
		case noDeviceText(line) || strings.HasPrefix(line, "libibverbs: Warning"):
			msgs = append(msgs, line)
			continue
		case devicesHeader.MatchString(line):
			if header {
				return nil, fail("a second header: two outputs run together?")
			}
			header = true
			continue
		case !header:
			return nil, fail("expected the 'device  node GUID' header")
		case dashes.MatchString(line):
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || !hexGUID.MatchString(f[1]) {
			return nil, fail("expected '<device> <16 hex digit node GUID>'")
		}
		for _, d := range res.Devices {
			if d.Name == f[0] {
				return nil, fail("device " + f[0] + " listed twice: two outputs run together?")
			}
		}
		res.Devices = append(res.Devices, ListedDevice{Name: f[0], NodeGUID: f[1]})
	}
	if !header && len(msgs) == 0 {
		return nil, &parse.Error{Tool: devicesTool, Reason: "no 'device  node GUID' header and no device error (nothing printed?)"}
	}
	res.NoDevice = len(res.Devices) == 0
	res.Message = strings.Join(msgs, "\n")
	return res, nil
}
