package gpfsfake

import (
	"fmt"
	"slices"
	"strings"

	"github.com/provadev/prova/engine/module/moduletest"
)

// mmchconfig handles "mmchconfig a=v,b=v [-i] [-N nodes]".
func (c *Cluster) mmchconfig(args []string) moduletest.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	var list string
	var nodes []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-i", "-I":
		case "-N":
			if i+1 == len(args) {
				return moduletest.Reply{RC: 1, Stderr: "mmchconfig: Missing argument after -N\n"}
			}
			nodes = strings.Split(args[i+1], ",")
			i++
		default:
			if list != "" {
				return moduletest.Reply{RC: 1, Stderr: "mmchconfig: Incorrect extra argument: " + args[i] + "\n"}
			}
			list = args[i]
		}
	}
	for _, kv := range strings.Split(list, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return moduletest.Reply{RC: 1, Stderr: fmt.Sprintf("mmchconfig: Incorrect attribute: %q\nmmchconfig: Command failed. Examine previous error messages to determine cause.\n", kv)}
		}
		c.set(k, v, nodes)
	}
	c.events = append(c.events, "mmchconfig "+strings.Join(args, " "))
	return moduletest.Reply{Stdout: "mmchconfig: Command successfully completed\nmmchconfig: Propagating the cluster configuration data to all\n  affected nodes.  This is an asynchronous process.\n"}
}

// set stores attr=value for nodes (nil = cluster-wide), replacing an entry
// for exactly those nodes. Caller holds mu.
func (c *Cluster) set(attr, value string, nodes []string) {
	for i, e := range c.Config {
		if strings.EqualFold(e.Attr, attr) && slices.Equal(e.Nodes, nodes) {
			c.Config[i].Value = value
			return
		}
	}
	c.Config = append(c.Config, Entry{Attr: attr, Value: value, Nodes: nodes})
}

func (c *Cluster) mmlscluster() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	b.WriteString("\nGPFS cluster information\n========================\n  GPFS cluster name:         fake.prova\n  GPFS cluster id:           1234567890\n  Repository type:           CCR\n\n")
	b.WriteString(" Node  Daemon node name  IP address  Admin node name  Designation\n-------------------------------------------------------------------\n")
	for i, n := range c.Nodes {
		d := ""
		if n.Quorum {
			d = "quorum-manager"
		}
		fmt.Fprintf(&b, "   %d   %s  %s  %s  %s\n", i+1, n.Name, n.IP, n.Name, d)
	}
	return b.String()
}

// mmgetstate handles "mmgetstate -N a,b -Y" and "mmgetstate -a -Y".
func (c *Cluster) mmgetstate(args []string) moduletest.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-a":
			for _, n := range c.Nodes {
				names = append(names, n.Name)
			}
		case "-N":
			if i+1 < len(args) {
				names = strings.Split(args[i+1], ",")
				i++
			}
		}
	}
	var b strings.Builder
	b.WriteString("mmgetstate::HEADER:version:reserved:reserved:nodeName:nodeNumber:state:quorum:nodesUp:totalNodes:remarks:cnfsState:\n")
	for _, name := range names {
		k := slices.IndexFunc(c.Nodes, func(n Node) bool { return n.Name == name })
		if k < 0 {
			return moduletest.Reply{RC: 1, Stderr: "mmgetstate: Incorrect node " + name + " specified for command.\n"}
		}
		st := c.state[name]
		if st == "arbitrating" && !slices.Contains(c.NeverStarts, name) {
			if c.polls[name] >= c.StartPolls {
				st = "active"
				c.state[name] = st
			}
			c.polls[name]++
		}
		remarks := ""
		if c.Nodes[k].Quorum {
			remarks = "quorum node"
		}
		fmt.Fprintf(&b, "mmgetstate::0:1:::%s:%d:%s:1:%d:%d:%s::\n", name, k+1, st, len(c.Nodes), len(c.Nodes), remarks)
	}
	return moduletest.Reply{Stdout: b.String()}
}

// setState handles mmshutdown/mmstartup with -a or -N list; a started node
// takes the configuration that applies to it then.
func (c *Cluster) setState(w []string, state string) moduletest.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	var names []string
	for i := 1; i < len(w); i++ {
		switch w[i] {
		case "-a":
			for _, n := range c.Nodes {
				names = append(names, n.Name)
			}
		case "-N":
			if i+1 < len(w) {
				names = strings.Split(w[i+1], ",")
				i++
			}
		}
	}
	c.events = append(c.events, strings.Join(w, " "))
	for _, n := range names {
		c.state[n] = state
		c.polls[n] = 0
		if state != "down" {
			c.effective[n] = c.resolved(n)
		}
	}
	if state == "down" {
		return moduletest.Reply{Stdout: w[0] + ": Shutting down GPFS daemons\n" + w[0] + ": Finished\n"}
	}
	return moduletest.Reply{Stdout: "mmstartup: Starting GPFS ...\n"}
}

// Change sets attr=value for nodes (none: cluster-wide) as mmchconfig
// would, without touching running daemons.
func (c *Cluster) Change(attr, value string, nodes ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.set(attr, value, nodes)
}
