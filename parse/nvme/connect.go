package nvme

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolConnect = "nvme connect"

// Connect is what "nvme connect" or "nvme connect-all" printed. nvme-cli
// 1.x prints nothing on success, so Devices may be empty.
type Connect struct {
	Devices []string `json:"devices"` // controllers created, e.g. ["nvme1"]
}

var connectRe = regexp.MustCompile(`^(?:connecting to )?device: (nvme\d+)$`)

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
			c.Devices = append(c.Devices, m[1])
			continue
		}
		if f := classify(t); f != nil {
			return nil, &parse.Error{Tool: toolConnect, Line: i + 1, Text: l, Reason: f.Reason}
		}
		return nil, &parse.Error{Tool: toolConnect, Line: i + 1, Text: l, Reason: "unexpected line"}
	}
	return c, nil
}
