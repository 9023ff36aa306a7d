package nvme

import (
	"fmt"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolDisconnect = "nvme disconnect"

// Disconnect is what "nvme disconnect -n NQN" printed.
type Disconnect struct {
	NQN         string `json:"nqn"`
	Controllers int    `json:"controllers"` // 0 means nothing was connected
}

var disconnectRe = lazyre.New(`^NQN:(\S+) disconnected (\d+) controller\(s\)$`)

// ParseDisconnect reads "nvme disconnect -n" output. Check Controllers:
// nvme-cli once exited 1 on success and exits 0 when nothing matched.
func ParseDisconnect(data []byte) (*Disconnect, error) {
	if err := parse.Complete("nvme disconnect", data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	var d *Disconnect
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		m := disconnectRe.FindStringSubmatch(t)
		switch {
		case m != nil && d == nil:
			d = &Disconnect{NQN: m[1]}
			if _, err := fmt.Sscan(m[2], &d.Controllers); err != nil {
				return nil, &parse.Error{Tool: toolDisconnect, Line: i + 1, Text: l, Reason: "controller count is not a number"}
			}
		case m != nil:
			return nil, &parse.Error{Tool: toolDisconnect, Line: i + 1, Text: l, Reason: "second disconnect line"}
		default:
			reason := "unexpected line"
			if f := classify(t); f != nil {
				reason = f.Reason
			}
			return nil, &parse.Error{Tool: toolDisconnect, Line: i + 1, Text: l, Reason: reason}
		}
	}
	if d == nil {
		return nil, missing(toolDisconnect, data, `"NQN:<nqn> disconnected <n> controller(s)" line`)
	}
	return d, nil
}
