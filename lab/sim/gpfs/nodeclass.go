package gpfs

import (
	"slices"
	"strings"

	"github.com/provadev/prova/lab/sim"
)

// UserClass is a user-defined node class: its members as given to
// mmcrnodeclass/mmchnodeclass, node names or other user classes.
type UserClass struct {
	Name    string   `json:"name"`
	Members []string `json:"members"`
}

func (c *Cluster) userClass(name string) *UserClass {
	for i := range c.UserClasses {
		if c.UserClasses[i].Name == name {
			return &c.UserClasses[i]
		}
	}
	return nil
}

// classNodes returns the nodes of a user class, expanding member classes
// (one level, as GPFS allows).
func (c *Cluster) classNodes(uc *UserClass) []*Node {
	want := map[string]bool{}
	for _, m := range uc.Members {
		if sub := c.userClass(m); sub != nil {
			for _, n := range sub.Members {
				want[n] = true
			}
			continue
		}
		want[m] = true
	}
	var out []*Node
	for i := range c.Nodes {
		if want[c.Nodes[i].Name] {
			out = append(out, &c.Nodes[i])
		}
	}
	return out
}

// systemClasses are the system node classes mmlsnodeclass --system lists,
// in that order ("all" is a keyword, not listed).
func systemClasses() []string { return classes[1:] }

// Mmlsnodeclass simulates mmlsnodeclass [ClassName[,...] | --user |
// --system | --all] [-Y] (samples/gpfs/mmlsnodeclass-*): the header, the
// two-column rule, one row per class with its members comma-separated.
// User classes list their members as defined (node or class names),
// system classes their nodes' daemon names. The -Y layout is an
// assumption (no public sample).
func Mmlsnodeclass() sim.Tool { return command("mmlsnodeclass", runMmlsnodeclass) }

func runMmlsnodeclass(s *session) (int, bool) {
	const usage = "Usage: mmlsnodeclass [ClassName[,ClassName...] | --user | --system | --all] [-Y]\n"
	y, sel := false, "--user"
	for _, a := range s.e.Args {
		switch {
		case a == "-Y":
			y = true
		case sel == "--user" && (a == "--user" || a == "--system" || a == "--all" || !strings.HasPrefix(a, "-")):
			sel = a
		default:
			s.err("mmlsnodeclass: Incorrect option: %s\n", a)
			s.err("%s", usage)
			return 1, false
		}
	}
	type row struct {
		name, typ string
		members   []string
		classes   []string
	}
	system := func(name string) row {
		r := row{name: name, typ: "SYSTEM"}
		for i := range s.c.Nodes {
			if inClass(&s.c.Nodes[i], name) {
				r.members = append(r.members, s.c.Nodes[i].Name)
			}
		}
		return r
	}
	user := func(uc *UserClass) row {
		r := row{name: uc.Name, typ: "USER", members: uc.Members}
		for _, m := range uc.Members {
			if s.c.userClass(m) != nil {
				r.classes = append(r.classes, m)
			}
		}
		return r
	}
	var rows []row
	switch sel {
	case "--user", "--all", "--system":
		if sel != "--user" {
			for _, name := range systemClasses() {
				rows = append(rows, system(name))
			}
		}
		if sel != "--system" {
			for i := range s.c.UserClasses {
				rows = append(rows, user(&s.c.UserClasses[i]))
			}
		}
	default:
		for _, name := range strings.Split(sel, ",") {
			switch {
			case s.c.userClass(name) != nil:
				rows = append(rows, user(s.c.userClass(name)))
			case slices.Contains(systemClasses(), name):
				rows = append(rows, system(name))
			default:
				s.err("mmlsnodeclass: Node class %s does not exist.\n", name)
				return s.failed("mmlsnodeclass"), false
			}
		}
	}
	if y {
		s.out("mmlsnodeclass::HEADER:version:reserved:reserved:nodeclassName:type:memberClasses:allMembers:\n")
		for _, r := range rows {
			all := r.members
			if len(r.classes) > 0 {
				all = nil
				for _, n := range s.c.classNodes(s.c.userClass(r.name)) {
					all = append(all, n.Name)
				}
			}
			s.out("mmlsnodeclass::0:1:::%s:%s:%s:%s:\n", yEncode(r.name), r.typ, yEncode(strings.Join(r.classes, ",")), yEncode(strings.Join(all, ",")))
		}
		return 0, false
	}
	s.out("Node Class Name       Members\n--------------------- -----------------------------------------------------------\n")
	for _, r := range rows {
		if len(r.members) == 0 {
			s.out("%s\n", r.name)
			continue
		}
		s.out("%-21s %s\n", r.name, strings.Join(r.members, ","))
	}
	return 0, false
}

// Mmcrnodeclass simulates mmcrnodeclass ClassName -N {Node[,Node...] |
// NodeClass}: a user-defined class of nodes or of other user classes.
func Mmcrnodeclass() sim.Tool { return command("mmcrnodeclass", runMmcrnodeclass) }

func runMmcrnodeclass(s *session) (int, bool) {
	const cmd = "mmcrnodeclass"
	args := s.e.Args
	if len(args) != 3 || args[1] != "-N" {
		s.err("Usage: mmcrnodeclass ClassName -N {Node[,Node...] | NodeFile | NodeClass}\n")
		return 1, false
	}
	name := args[0]
	if s.c.userClass(name) != nil {
		s.err("%s: Node class %s already exists.\n", cmd, name)
		return s.failed(cmd), false
	}
	if !s.validClassName(cmd, name) {
		return s.failed(cmd), false
	}
	members, ok := s.classMembers(cmd, args[2])
	if !ok {
		return s.failed(cmd), false
	}
	s.c.UserClasses = append(s.c.UserClasses, UserClass{Name: name, Members: members})
	s.err("%s: Propagating the cluster configuration data to all\n  affected nodes.  This is an asynchronous process.\n", cmd)
	return 0, true
}

// Mmchnodeclass simulates mmchnodeclass ClassName {add | delete |
// replace} -N {Node[,Node...] | NodeClass}.
func Mmchnodeclass() sim.Tool { return command("mmchnodeclass", runMmchnodeclass) }

func runMmchnodeclass(s *session) (int, bool) {
	const cmd = "mmchnodeclass"
	args := s.e.Args
	if len(args) != 4 || args[2] != "-N" || (args[1] != "add" && args[1] != "delete" && args[1] != "replace") {
		s.err("Usage: mmchnodeclass ClassName {add | delete | replace} -N {Node[,Node...] | NodeFile | NodeClass}\n")
		return 1, false
	}
	uc := s.c.userClass(args[0])
	if uc == nil {
		s.err("%s: Node class %s does not exist.\n", cmd, args[0])
		return s.failed(cmd), false
	}
	members, ok := s.classMembers(cmd, args[3])
	if !ok {
		return s.failed(cmd), false
	}
	switch args[1] {
	case "replace":
		uc.Members = members
	case "add":
		for _, m := range members {
			if !slices.Contains(uc.Members, m) {
				uc.Members = append(uc.Members, m)
			}
		}
	case "delete":
		uc.Members = slices.DeleteFunc(slices.Clone(uc.Members), func(m string) bool { return slices.Contains(members, m) })
	}
	s.err("%s: Propagating the cluster configuration data to all\n  affected nodes.  This is an asynchronous process.\n", cmd)
	return 0, true
}

// Mmdelnodeclass simulates mmdelnodeclass ClassName[,ClassName...].
func Mmdelnodeclass() sim.Tool { return command("mmdelnodeclass", runMmdelnodeclass) }

func runMmdelnodeclass(s *session) (int, bool) {
	const cmd = "mmdelnodeclass"
	if len(s.e.Args) != 1 {
		s.err("Usage: mmdelnodeclass ClassName[,ClassName...]\n")
		return 1, false
	}
	names := strings.Split(s.e.Args[0], ",")
	for _, name := range names {
		if s.c.userClass(name) == nil {
			s.err("%s: Node class %s does not exist.\n", cmd, name)
			return s.failed(cmd), false
		}
	}
	s.c.UserClasses = slices.DeleteFunc(slices.Clone(s.c.UserClasses), func(uc UserClass) bool { return slices.Contains(names, uc.Name) })
	s.err("%s: Propagating the cluster configuration data to all\n  affected nodes.  This is an asynchronous process.\n", cmd)
	return 0, true
}

// validClassName applies IBM's rule: names ending in "nodes" and the
// system class names are reserved; an existing node name cannot be used.
func (s *session) validClassName(cmd, name string) bool {
	if name == "" || strings.HasSuffix(strings.ToLower(name), "nodes") || slices.Contains(classes, name) {
		s.err("%s: Class names that end with nodes or system-defined node classes are reserved: %s\n", cmd, name)
		return false
	}
	if strings.ContainsAny(name, ",:/ ") {
		s.err("%s: Incorrect node class name %s.\n", cmd, name)
		return false
	}
	if s.c.node(name) != nil {
		s.err("%s: %s is the name of a node.\n", cmd, name)
		return false
	}
	return true
}

// classMembers resolves the -N list of mmcrnodeclass/mmchnodeclass: node
// names or addresses (kept as daemon node names) and user classes (kept as
// class names; a class that holds classes cannot be one).
func (s *session) classMembers(cmd, spec string) ([]string, bool) {
	var out []string
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if uc := s.c.userClass(item); uc != nil {
			for _, m := range uc.Members {
				if s.c.userClass(m) != nil {
					s.err("%s: Node class %s contains other node classes and cannot be a member.\n", cmd, item)
					return nil, false
				}
			}
			out = append(out, item)
			continue
		}
		nodes, err := s.c.selectNodes(item)
		if err != nil || len(nodes) == 0 {
			s.err("%s: Incorrect node %s specified for command.\n", cmd, item)
			return nil, false
		}
		for _, n := range nodes {
			if !slices.Contains(out, n.Name) {
				out = append(out, n.Name)
			}
		}
	}
	return out, true
}
