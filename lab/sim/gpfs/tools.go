package gpfs

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// installed: the GPFS commands exist on nodes with the gpfs file system.
func installed(n *model.Node) bool { return slices.Contains(n.FileSystems, "gpfs") }

// command builds a tool whose run gets the opened cluster session. run
// reports its exit status and whether it changed the state.
func command(name string, run func(s *session) (status int, changed bool)) sim.Tool {
	return sim.Tool{Name: name, Installed: installed, InProcess: true, Run: func(_ context.Context, e *sim.Env) int {
		status := 0
		err := open(e, func(s *session) (bool, error) {
			st, changed := run(s)
			status = st
			return changed, nil
		})
		if err != nil {
			return e.Fail(err)
		}
		return status
	}}
}

// dateLayout is date(1)'s default format, which mm commands prefix lines with.
const dateLayout = "Mon Jan _2 15:04:05 MST 2006"

func (s *session) date() string { return s.now.Format(dateLayout) }

func (s *session) out(format string, args ...any) { fmt.Fprintf(s.e.Stdout, format, args...) }
func (s *session) err(format string, args ...any) { fmt.Fprintf(s.e.Stderr, format, args...) }

// self is the node the command runs on.
func (s *session) self() *Node { return s.c.node(s.e.Node) }

// failed prints the closing line of a failed mm command and returns 1.
func (s *session) failed(cmd string) int {
	s.err("%s: Command failed. Examine previous error messages to determine cause.\n", cmd)
	return 1
}

// daemonDown prints what mmdiag and mmfsadm print when mmfsd is not
// running (message 6027-665) and returns its status.
func (s *session) daemonDown() int {
	s.err("Failed to connect to file system daemon: Connection refused\n")
	return 1
}

// selectNodes resolves a -N argument: daemon node names, IP addresses and
// node classes, comma separated. The result is in node number order.
func (c *Cluster) selectNodes(spec string) ([]*Node, error) {
	want := map[string]bool{}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		if uc := c.userClass(item); uc != nil {
			for _, n := range c.classNodes(uc) {
				want[n.Name] = true
			}
			continue
		}
		found := false
		for i := range c.Nodes {
			n := &c.Nodes[i]
			if n.Name == item || n.Address == item || strings.EqualFold(n.Name, item) || inClass(n, item) && isClass(item) {
				want[n.Name], found = true, true
			}
		}
		if !found && !isClass(item) {
			return nil, fmt.Errorf("%s", item)
		}
	}
	var out []*Node
	for i := range c.Nodes {
		if want[c.Nodes[i].Name] {
			out = append(out, &c.Nodes[i])
		}
	}
	return out, nil
}

func (c *Cluster) all() []*Node {
	out := make([]*Node, len(c.Nodes))
	for i := range c.Nodes {
		out[i] = &c.Nodes[i]
	}
	return out
}

// yEncode percent-encodes a -Y field as mmclidecode expects.
func yEncode(s string) string {
	return strings.NewReplacer("%", "%25", ":", "%3A", "\n", "%0A").Replace(s)
}

// Tools returns every GPFS command of the package.
func Tools() []sim.Tool {
	return []sim.Tool{Mmlscluster(), Mmchconfig(), Mmlsconfig(), Mmdiag(), Mmgetstate(), Mmstartup(), Mmshutdown(), Mmfsadm(), Mmlsnsd(), Mmlsmount(),
		Mmlsnodeclass(), Mmcrnodeclass(), Mmchnodeclass(), Mmdelnodeclass()}
}
