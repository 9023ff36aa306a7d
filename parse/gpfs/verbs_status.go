package gpfs

import (
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// VerbsStatus is the output of "mmfsadm test verbs status": whether the
// daemon started RDMA (the verbsRdma master switch took effect).
type VerbsStatus struct {
	// Status is the word after "VERBS RDMA status:", e.g. "started",
	// "disabled".
	Status  string `json:"status"`
	Started bool   `json:"started"`
	// Extra keeps any other non-blank lines, which are not interpreted.
	Extra []string `json:"extra,omitempty"`
}

// ParseVerbsStatus reads "mmfsadm test verbs status"; the output must contain
// a line "VERBS RDMA status: <status>".
func ParseVerbsStatus(data []byte) (*VerbsStatus, error) {
	const tool = "mmfsadm test verbs status"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	var v *VerbsStatus
	var extra []string
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		if text.Terminal(raw) {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
				Reason: "a login banner or shell prompt, not mmfsadm output: paste the tool's output only"}
		}
		rest, ok := strings.CutPrefix(line, "VERBS RDMA status:")
		if !ok {
			extra = append(extra, line)
			continue
		}
		if v != nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "second status line"}
		}
		st := strings.TrimSpace(rest)
		if st == "" {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "empty status"}
		}
		v = &VerbsStatus{Status: st, Started: strings.EqualFold(st, "started")}
	}
	if v == nil {
		return nil, &parse.Error{Tool: tool, Reason: "no 'VERBS RDMA status:' line"}
	}
	v.Extra = extra
	return v, nil
}
