package gpfs

import (
	"maps"
	"slices"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/lab/sim"
)

// Mmchconfig simulates mmchconfig attr=value[,attr=value...] [-i|-I]
// [-N nodes|class|all]. Values are stored at once; the running daemons see
// them at their next start, or at once with -i/-I for the attributes that
// allow it.
func Mmchconfig() sim.Tool { return command("mmchconfig", runMmchconfig) }

const chconfigUsage = `Usage:
   mmchconfig Attribute=value[,Attribute=value...] [-i | -I]
                [-N {Node[,Node...] | NodeFile | NodeClass}]
`

var assignStart = lazyre.New(`^\s*[A-Za-z][A-Za-z0-9_]*=`)

// splitAssignments splits "a=1,b=x y,c=p;q" at the commas that start a new
// attr=value pair, so values may contain commas.
func splitAssignments(arg string) []string {
	var out []string
	for _, part := range strings.Split(arg, ",") {
		if len(out) > 0 && !assignStart.MatchString(part) {
			out[len(out)-1] += "," + part
			continue
		}
		out = append(out, part)
	}
	return out
}

func unquote(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

func runMmchconfig(s *session) (int, bool) {
	const cmd = "mmchconfig"
	var spec, assign string
	immediate, temporary := false, false
	args := s.e.Args
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-N" && i+1 < len(args):
			i++
			spec = args[i]
		case a == "-i":
			immediate = true
		case a == "-I":
			temporary = true
		case strings.HasPrefix(a, "-"):
			s.err("%s: Incorrect option: %s\n%s", cmd, a, chconfigUsage)
			return 1, false
		case assign == "":
			assign = a
		default:
			s.err("%s: Incorrect extra argument: %s\n%s", cmd, a, chconfigUsage)
			return 1, false
		}
	}
	if assign == "" || immediate && temporary {
		s.err("%s", chconfigUsage)
		return 1, false
	}
	type change struct{ name, value string }
	var changes []change
	for _, kv := range splitAssignments(assign) {
		name, value, ok := strings.Cut(kv, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(unquote(strings.TrimSpace(value)))
		if !ok || name == "" {
			s.err("%s: Incorrect attribute specification: %s\n", cmd, kv)
			return s.failed(cmd), false
		}
		if slices.Contains(fixed, name) {
			s.err("%s: The %s attribute cannot be changed with the mmchconfig command.\n", cmd, name)
			return s.failed(cmd), false
		}
		canon, a, known := lookupAttr(name)
		if !known {
			s.err("%s: Unknown attribute %s.\n", cmd, name)
			return s.failed(cmd), false
		}
		if (immediate || temporary) && !a.immediate {
			flag := "-i"
			if temporary {
				flag = "-I"
			}
			s.err("%s: The %s flag is not valid for attribute %s; the change takes effect when the daemon restarts.\n", cmd, flag, canon)
			return s.failed(cmd), false
		}
		if strings.EqualFold(value, "DEFAULT") {
			changes = append(changes, change{canon, ""})
			continue
		}
		norm, err := a.normalize(value)
		if err != nil {
			s.err("%s: Invalid value %q for attribute %s: %v.\n", cmd, value, canon, err)
			return s.failed(cmd), false
		}
		changes = append(changes, change{canon, norm})
	}
	key, targets := "", s.c.all()
	if spec != "" && spec != "all" {
		nodes, err := s.c.selectNodes(spec)
		if err != nil || len(nodes) == 0 {
			s.err("%s: Incorrect node %s specified for the -N option.\n", cmd, spec)
			return s.failed(cmd), false
		}
		targets = nodes
		if isClass(spec) {
			key = spec
		} else {
			names := make([]string, len(nodes))
			for i, n := range nodes {
				names[i] = n.Name
			}
			key = strings.Join(names, ",")
		}
	}
	for _, ch := range changes {
		if !temporary {
			s.c.set(key, ch.name, ch.value)
		}
		if immediate || temporary {
			for _, n := range targets {
				if !n.Started {
					continue
				}
				v := ch.value
				if v == "" {
					v = attrs[ch.name].def
				}
				// copies: the maps may be shared with the memo (Cluster.clone)
				n.Eff, n.How = maps.Clone(n.Eff), maps.Clone(n.How)
				if n.Eff == nil {
					n.Eff = map[string]string{}
				}
				if n.How == nil {
					n.How = map[string]string{}
				}
				n.Eff[ch.name], n.How[ch.name] = v, "dynamic"
			}
		}
	}
	s.err("%s: Command successfully completed\n", cmd)
	s.err("%s: Propagating the cluster configuration data to all\n  affected nodes.  This is an asynchronous process.\n", cmd)
	return 0, true
}
