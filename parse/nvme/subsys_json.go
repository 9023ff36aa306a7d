package nvme

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/provadev/prova/parse"
)

type jsonPath struct {
	Name      string `json:"Name"`
	Transport string `json:"Transport"`
	Address   string `json:"Address"`
	State     string `json:"State"`
	ANAState  string `json:"ANAState"`
}

type jsonNamespace struct {
	NSID       int        `json:"NSID"`
	Paths      []jsonPath `json:"Paths"`
	Controller []jsonPath `json:"Controller"`
}

type jsonSubsys struct {
	Name       string          `json:"Name"`
	NQN        string          `json:"NQN"`
	IOPolicy   string          `json:"IOPolicy"`
	Paths      []jsonPath      `json:"Paths"`
	Namespaces []jsonNamespace `json:"Namespaces"`
}

type jsonHost struct {
	HostNQN    string       `json:"HostNQN"`
	HostID     string       `json:"HostID"`
	Subsystems []jsonSubsys `json:"Subsystems"`
}

func parseSubsysJSON(tool string, raw json.RawMessage) (*ListSubsys, error) {
	var hosts []jsonHost
	if bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		if err := json.Unmarshal(raw, &hosts); err != nil { // 2.x: array of hosts
			return nil, jsonError(tool, err)
		}
	} else {
		var h jsonHost // 1.x: one object
		if err := json.Unmarshal(raw, &h); err != nil {
			return nil, jsonError(tool, err)
		}
		if h.Subsystems == nil {
			return nil, &parse.Error{Tool: tool, Reason: `JSON object has no "Subsystems" array`}
		}
		hosts = []jsonHost{h}
	}
	out := &ListSubsys{Subsystems: []Subsystem{}}
	for hi, h := range hosts {
		for si, js := range h.Subsystems {
			if js.Name == "" {
				// 1.x prints {"Name","NQN"} and {"Paths"} as separate elements.
				if len(out.Subsystems) == 0 || len(js.Paths) == 0 {
					return nil, &parse.Error{Tool: tool, Reason: fmt.Sprintf("host %d subsystem %d has no Name", hi, si)}
				}
				last := &out.Subsystems[len(out.Subsystems)-1]
				for _, p := range js.Paths {
					last.addPath(p.path())
				}
				continue
			}
			s := Subsystem{Name: js.Name, NQN: js.NQN, HostNQN: h.HostNQN, HostID: h.HostID, IOPolicy: js.IOPolicy, Paths: []Path{}}
			for _, p := range js.Paths {
				s.addPath(p.path())
			}
			for _, jn := range js.Namespaces {
				n := Namespace{NSID: jn.NSID, Paths: []Path{}}
				for _, p := range append(jn.Paths, jn.Controller...) {
					n.Paths = append(n.Paths, p.path())
					s.addPath(p.path())
				}
				s.Namespaces = append(s.Namespaces, n)
			}
			out.Subsystems = append(out.Subsystems, s)
		}
	}
	return out, nil
}

func (p jsonPath) path() Path {
	return Path{Name: p.Name, Transport: p.Transport, Addr: p.Address, Address: ParseAddress(p.Address), State: p.State, ANAState: p.ANAState}
}
