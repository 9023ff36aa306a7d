package nvme

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolConnect = "nvme connect"

// Connect is what "nvme connect" or "nvme connect-all" printed. nvme-cli
// 1.x prints nothing on success, so Devices may be empty.
type Connect struct {
	Devices []string `json:"devices"` // controllers created, e.g. ["nvme1"]
	// Empty is true when nothing was printed: nvme-cli 1.x's success, but
	// also what a failure with its message on stderr leaves on stdout;
	// only the exit status tells them apart.
	Empty bool `json:"empty,omitempty"`
}

var connectRe = lazyre.New(`^(?:connecting to )?device: (nvme\d+)$`)

// ParseConnect reads the stdout of "nvme connect" / "nvme connect-all"
// (text or -o json). Failure text (as in a merged stderr) is an error
// carrying the classified reason.
func ParseConnect(data []byte) (*Connect, error) {
	if err := parse.Complete("nvme connect", data); err != nil {
		return nil, err
	}
	c := &Connect{Devices: []string{}}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		var v struct {
			Device string `json:"device"`
			Error  string `json:"error"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, jsonError(toolConnect, err)
		}
		if v.Error != "" {
			return nil, missing(toolConnect, []byte(v.Error), "device")
		}
		if v.Device != "" {
			c.Devices = append(c.Devices, v.Device)
		}
		return c, nil
	}
	lines := text.Lines(data)
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if m := connectRe.FindStringSubmatch(t); m != nil {
			for _, d := range c.Devices {
				if d == m[1] {
					return nil, &parse.Error{Tool: toolConnect, Line: i + 1, Text: l,
						Reason: m[1] + " created twice: two outputs run together?"}
				}
			}
			c.Devices = append(c.Devices, m[1])
			continue
		}
		if f := classify(t); f != nil {
			return nil, &parse.Error{Tool: toolConnect, Line: i + 1, Text: l, Reason: f.Reason}
		}
		return nil, &parse.Error{Tool: toolConnect, Line: i + 1, Text: l, Reason: "unexpected line"}
	}
	c.Empty = len(c.Devices) == 0
	return c, nil
}
