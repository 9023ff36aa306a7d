package nvme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const (
	toolListSubsys = "nvme list-subsys"
	toolTopology   = "nvme show-topology"
)

var (
	subsysHeadRe = lazyre.New(`^(nvme-subsys\d+) - NQN=(.*)$`)
	subsysAttrRe = lazyre.New(`^\s+(hostnqn|hostid|iopolicy)=(.*)$`)
	treeItemRe   = lazyre.New(`^\s*\+-\s*(.*)$`)
	nsItemRe     = lazyre.New(`^ns id (\d+)$`)
	ctrlNameRe   = lazyre.New(`^nvme\d+$`)
)

var anaStates = map[string]bool{
	"optimized": true, "non-optimized": true, "inaccessible": true,
	"persistent-loss": true, "change": true,
}

// ParseListSubsys reads "nvme list-subsys" output: the text tree of 1.x or
// 2.x, or -o json in the 1.x (object) or 2.x (array of hosts) schema.
func ParseListSubsys(data []byte) (*ListSubsys, error) {
	if err := parse.Complete("nvme list-subsys", data); err != nil {
		return nil, err
	}
	return parseSubsys(toolListSubsys, data)
}

// ParseShowTopology reads "nvme show-topology" output (text or -o json).
// Each subsystem lists its namespaces with their paths, and Paths holds
// every distinct controller path of the subsystem.
func ParseShowTopology(data []byte) (*ListSubsys, error) {
	if err := parse.Complete("nvme show-topology", data); err != nil {
		return nil, err
	}
	return parseSubsys(toolTopology, data)
}

func parseSubsys(tool string, data []byte) (*ListSubsys, error) {
	lines := text.Lines(data)
	start := -1
	for i, l := range lines {
		if subsysHeadRe.MatchString(strings.TrimRight(l, " \t")) {
			start = i
			break
		}
	}
	if start < 0 {
		raw, ok, err := findJSON(tool, data)
		if ok {
			return parseSubsysJSON(tool, raw)
		}
		if err != nil {
			return nil, err
		}
		if blank(data) {
			return &ListSubsys{Subsystems: []Subsystem{}, Empty: true}, nil // nothing connected: nvme-cli prints nothing
		}
		return nil, missing(tool, data, "subsystem")
	}
	return parseSubsysText(tool, lines, start)
}

func parseSubsysText(tool string, lines []string, start int) (*ListSubsys, error) {
	out := &ListSubsys{Subsystems: []Subsystem{}}
	var cur *Subsystem
	var ns *Namespace
	errAt := func(i int, format string, a ...any) error {
		return &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: fmt.Sprintf(format, a...)}
	}
	seen := map[string]bool{}
	flush := func() {
		if cur != nil {
			out.Subsystems = append(out.Subsystems, *cur)
		}
		cur, ns = nil, nil
	}
	for i := start; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], " \t")
		t := strings.TrimSpace(l)
		switch {
		case t == "" || t == `\`:
			continue
		case subsysHeadRe.MatchString(l):
			flush()
			m := subsysHeadRe.FindStringSubmatch(l)
			if seen[m[1]] {
				return nil, errAt(i, "subsystem %s a second time (two outputs run together?)", m[1])
			}
			seen[m[1]] = true
			cur = &Subsystem{Name: m[1], NQN: strings.TrimSpace(m[2]), Paths: []Path{}}
		case cur != nil && subsysAttrRe.MatchString(l):
			m := subsysAttrRe.FindStringSubmatch(l)
			switch m[1] {
			case "hostnqn":
				cur.HostNQN = m[2]
			case "hostid":
				cur.HostID = m[2]
			case "iopolicy":
				cur.IOPolicy = m[2]
			}
		case cur != nil && treeItemRe.MatchString(l):
			item := treeItemRe.FindStringSubmatch(l)[1]
			if m := nsItemRe.FindStringSubmatch(item); m != nil {
				id, _ := strconv.Atoi(m[1])
				cur.Namespaces = append(cur.Namespaces, Namespace{NSID: id, Paths: []Path{}})
				ns = &cur.Namespaces[len(cur.Namespaces)-1]
				continue
			}
			p, err := parsePathItem(item)
			if err != nil {
				return nil, errAt(i, "%v", err)
			}
			if ns != nil {
				ns.Paths = append(ns.Paths, p)
			}
			cur.addPath(p)
		default:
			flush()
			return out, nil // end of the listing
		}
	}
	flush()
	return out, nil
}

// parsePathItem reads "nvme0 tcp traddr=A,trsvcid=P live optimized",
// "nvme0 rdma traddr=A trsvcid=P host_traddr=H" (1.x) or
// "nvme0 pcie 0000:41:00.0 live".
func parsePathItem(item string) (Path, error) {
	f := strings.Fields(item)
	if len(f) < 2 {
		return Path{}, fmt.Errorf("path needs a controller name and a transport")
	}
	if !ctrlNameRe.MatchString(f[0]) {
		return Path{}, fmt.Errorf("path controller %q is not nvmeN", f[0])
	}
	p := Path{Name: f[0], Transport: f[1]}
	i := 2
	var addr []string
	if i < len(f) && !strings.Contains(f[i], "=") && strings.Count(f[i], ":") >= 1 && !anaStates[f[i]] {
		addr = append(addr, f[i]) // pcie BDF or fc nn-..:pn-..
		i++
	}
	for ; i < len(f) && strings.Contains(f[i], "="); i++ {
		addr = append(addr, f[i])
	}
	rest := f[i:]
	if n := len(rest); n > 0 && anaStates[rest[n-1]] {
		p.ANAState = rest[n-1]
		rest = rest[:n-1]
	}
	p.State = strings.Join(rest, " ")
	p.Addr = strings.Join(addr, " ")
	p.Address = ParseAddress(p.Addr)
	return p, nil
}
