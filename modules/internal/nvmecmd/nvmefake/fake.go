// Package nvmefake models an NVMe-oF initiator running nvme-cli 2.x on a
// moduletest.FakeHost, for the tests of the NVMe-oF modules: discover,
// connect, disconnect, list-subsys and list change and show one shared
// state (a local PCIe disk as nvme-subsys0, the target's subsystem as
// nvme-subsys1 with native multipath). It does not model nvme-cli 1.x or
// text output: tests feed real samples for those.
package nvmefake

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/provadev/prova/engine/module/moduletest"
)

// Target is the NVMe-oF target the host can reach.
type Target struct {
	NQN        string
	Address    string
	Port       int
	Transports []string // offered transports
}

// Path is one connected controller.
type Path struct {
	Controller string
	Transport  string
	Address    string
	Port       int
}

// Sim is the shared state. It is safe for concurrent use.
type Sim struct {
	target Target
	// DisconnectExitsOne makes disconnect exit 1 on success (the 2017 bug).
	DisconnectExitsOne bool

	mu    sync.Mutex
	paths []Path
	next  int
}

// New returns a host with nothing connected to t.
func New(t Target) *Sim { return &Sim{target: t, next: 1} }

// Connected returns the connected controllers.
func (s *Sim) Connected() []Path {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.paths)
}

// Connect adds a controller over transport, as if connected earlier.
func (s *Sim) Connect(transport string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.add(transport, s.target.Address, s.target.Port)
}

func (s *Sim) add(transport, addr string, port int) string {
	s.next++
	name := "nvme" + strconv.Itoa(s.next)
	s.paths = append(s.paths, Path{Controller: name, Transport: transport, Address: addr, Port: port})
	return name
}

// Install registers the nvme-cli handlers on h.
func (s *Sim) Install(h *moduletest.FakeHost) {
	h.Handle(`^nvme discover `, func(cmd string, _ []byte) moduletest.Reply { return s.discover(flags(cmd)) })
	h.Handle(`^nvme connect `, func(cmd string, _ []byte) moduletest.Reply { return s.connect(flags(cmd)) })
	h.Handle(`^nvme disconnect `, func(cmd string, _ []byte) moduletest.Reply { return s.disconnect(flags(cmd)) })
	h.Handle(`^nvme list-subsys -o json$`, func(string, []byte) moduletest.Reply { return s.listSubsys() })
	h.Handle(`^nvme list -v -o json$`, func(string, []byte) moduletest.Reply { return s.list() })
}

// flags reads "-x value" pairs of a command line.
func flags(cmd string) map[string]string {
	f := strings.Fields(cmd)
	m := map[string]string{}
	for i := 2; i < len(f); i++ {
		if strings.HasPrefix(f[i], "-") && i+1 < len(f) {
			m[f[i]] = f[i+1]
			i++
		}
	}
	return m
}

func (s *Sim) reaches(f map[string]string) (string, int, bool) {
	port, _ := strconv.Atoi(f["-s"])
	ok := f["-a"] == s.target.Address && port == s.target.Port && slices.Contains(s.target.Transports, f["-t"])
	return f["-a"], port, ok
}

func refused() moduletest.Reply {
	return moduletest.Reply{RC: 1, Stderr: "Failed to write to /dev/nvme-fabrics: Connection refused\n"}
}

func (s *Sim) discover(f map[string]string) moduletest.Reply {
	addr, port, ok := s.reaches(f)
	if !ok {
		return refused()
	}
	rec := map[string]any{"trtype": f["-t"], "adrfam": "ipv4", "subtype": "nvme subsystem", "treq": "not specified",
		"portid": 1, "trsvcid": strconv.Itoa(port), "subnqn": s.target.NQN, "traddr": addr}
	return jsonReply(map[string]any{"device": "nvme9", "genctr": 3, "records": []any{rec}})
}

func (s *Sim) connect(f map[string]string) moduletest.Reply {
	addr, port, ok := s.reaches(f)
	if !ok || f["-n"] != s.target.NQN {
		return refused()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.paths {
		if p.Transport == f["-t"] && p.Address == addr && p.Port == port {
			return moduletest.Reply{RC: 1, Stderr: "Failed to write to /dev/nvme-fabrics: Operation already in progress\n"}
		}
	}
	return moduletest.Reply{Stdout: "connecting to device: " + s.add(f["-t"], addr, port) + "\n"}
}

func (s *Sim) disconnect(f map[string]string) moduletest.Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := f["-d"]; ok {
		i := slices.IndexFunc(s.paths, func(p Path) bool { return p.Controller == d })
		if i < 0 {
			return moduletest.Reply{RC: 1, Stderr: "Failed to open /dev/" + d + ": No such file or directory\n"}
		}
		s.paths = slices.Delete(s.paths, i, i+1)
		return moduletest.Reply{}
	}
	n := 0
	if f["-n"] == s.target.NQN {
		n = len(s.paths)
		s.paths = nil
	}
	r := moduletest.Reply{Stdout: fmt.Sprintf("NQN:%s disconnected %d controller(s)\n", f["-n"], n)}
	if s.DisconnectExitsOne {
		r.RC = 1
	}
	return r
}

func (s *Sim) listSubsys() moduletest.Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	subs := []any{map[string]any{"Name": "nvme-subsys0", "NQN": "nqn.2014.08.org.nvmexpress:80868086LOCAL", "IOPolicy": "numa",
		"Paths": []any{map[string]any{"Name": "nvme0", "Transport": "pcie", "Address": "0000:41:00.0", "State": "live"}}}}
	if len(s.paths) > 0 {
		var paths []any
		for _, p := range s.paths {
			paths = append(paths, map[string]any{"Name": p.Controller, "Transport": p.Transport,
				"Address": fmt.Sprintf("traddr=%s,trsvcid=%d,src_addr=10.0.0.2", p.Address, p.Port), "State": "live"})
		}
		subs = append(subs, map[string]any{"Name": "nvme-subsys1", "NQN": s.target.NQN, "IOPolicy": "numa", "Paths": paths})
	}
	return jsonReply([]any{map[string]any{"HostNQN": "nqn.2014-08.org.nvmexpress:uuid:fake", "HostID": "fake", "Subsystems": subs}})
}

func (s *Sim) list() moduletest.Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	subs := []any{map[string]any{"Subsystem": "nvme-subsys0", "SubsystemNQN": "nqn.2014.08.org.nvmexpress:80868086LOCAL",
		"Controllers": []any{map[string]any{"Controller": "nvme0", "Transport": "pcie", "Address": "0000:41:00.0"}},
		"Namespaces":  []any{map[string]any{"NameSpace": "nvme0n1", "Generic": "ng0n1", "NSID": 1}}}}
	if len(s.paths) > 0 {
		var ctrls []any
		for _, p := range s.paths {
			ctrls = append(ctrls, map[string]any{"Controller": p.Controller, "Transport": p.Transport,
				"Address": fmt.Sprintf("traddr=%s,trsvcid=%d", p.Address, p.Port)})
		}
		subs = append(subs, map[string]any{"Subsystem": "nvme-subsys1", "SubsystemNQN": s.target.NQN, "Controllers": ctrls,
			"Namespaces": []any{map[string]any{"NameSpace": "nvme1n1", "Generic": "ng1n1", "NSID": 1}}})
	}
	return jsonReply(map[string]any{"Devices": []any{map[string]any{"HostNQN": "nqn.2014-08.org.nvmexpress:uuid:fake", "Subsystems": subs}}})
}

func jsonReply(v any) moduletest.Reply {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return moduletest.Reply{RC: 1, Stderr: err.Error()}
	}
	return moduletest.Reply{Stdout: string(b) + "\n"}
}
