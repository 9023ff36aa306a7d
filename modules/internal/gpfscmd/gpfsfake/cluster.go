package gpfsfake

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

// Node is one cluster node.
type Node struct {
	Name   string
	IP     string
	Quorum bool
}

// Entry is one configuration value; Nodes empty means cluster-wide.
type Entry struct {
	Attr, Value string
	Nodes       []string
}

// Cluster is the fake cluster. Set its fields before Attach; after, use the
// methods (handlers run concurrently with the test).
type Cluster struct {
	Nodes  []Node
	Config []Entry
	// MemTotalKB is every node's MemTotal (default 256 GiB).
	MemTotalKB uint64
	// StartPolls is how many mmgetstate answers show "arbitrating" after a
	// node starts, before "active".
	StartPolls int
	// NeverStarts lists nodes that stay "arbitrating" after mmstartup.
	NeverStarts []string
	// NSDs are the network shared disks (none: mmlsnsd finds no disks and
	// there is no file system).
	NSDs []NSD
	// NeverMounts lists nodes that come back active without mounting.
	NeverMounts []string
	// Down lists nodes whose daemon is down from the start.
	Down []string
	// AfterAdmin, when set, is called after each mmshutdown or mmstartup
	// took effect (outside the cluster's lock), with the command's words.
	AfterAdmin func(words []string)

	mu        sync.Mutex
	state     map[string]string
	polls     map[string]int
	effective map[string]map[string]string
	events    []string
	marker    string
	// mountPolls counts mmlsmount answers.
	mountPolls int
}

// Attach installs the cluster's handlers on h, which is the node named
// h.Name(). Every node starts active with the configuration in effect.
func (c *Cluster) Attach(h *moduletest.FakeHost) {
	c.mu.Lock()
	if c.state == nil {
		c.state, c.polls, c.effective = map[string]string{}, map[string]int{}, map[string]map[string]string{}
		for _, n := range c.Nodes {
			c.state[n.Name] = "active"
			c.effective[n.Name] = c.resolved(n.Name)
		}
		for _, n := range c.Down {
			c.state[n] = "down"
		}
	}
	c.mu.Unlock()
	self := h.Name()
	h.Handle(`mmlsconfig -Y$`, func(string, []byte) moduletest.Reply { return moduletest.Reply{Stdout: c.mmlsconfig()} })
	h.Handle(`mmdiag --config -Y$`, func(string, []byte) moduletest.Reply { return c.mmdiag(self) })
	h.Handle(`mmchconfig `, func(cmd string, _ []byte) moduletest.Reply { return c.mmchconfig(words(cmd)[1:]) })
	h.Handle(`mmlscluster$`, func(string, []byte) moduletest.Reply { return moduletest.Reply{Stdout: c.mmlscluster()} })
	h.Handle(`mmgetstate `, func(cmd string, _ []byte) moduletest.Reply { return c.mmgetstate(words(cmd)[1:]) })
	h.Handle(`mmlsnsd$`, func(string, []byte) moduletest.Reply { return c.mmlsnsd() })
	h.Handle(`mmlsmount all -L$`, func(string, []byte) moduletest.Reply { return c.mmlsmount() })
	h.Handle(`prova-restart\.inflight`, func(cmd string, _ []byte) moduletest.Reply { return c.markerCmd(cmd) })
	h.Handle(`mmshutdown `, func(cmd string, _ []byte) moduletest.Reply { return c.admin(words(cmd), "down") })
	h.Handle(`mmstartup `, func(cmd string, _ []byte) moduletest.Reply { return c.admin(words(cmd), "arbitrating") })
	h.Handle(`^cat /proc/meminfo$`, func(string, []byte) moduletest.Reply {
		kb := c.MemTotalKB
		if kb == 0 {
			kb = 256 << 20
		}
		return moduletest.Reply{Stdout: fmt.Sprintf("MemTotal:       %d kB\nMemFree:        %d kB\n", kb, kb/2)}
	})
}

func (c *Cluster) admin(w []string, state string) moduletest.Reply {
	r := c.setState(w, state)
	if c.AfterAdmin != nil {
		c.AfterAdmin(w)
	}
	return r
}

// Events returns the restart commands run, in order: "mmshutdown -N gpfs02",
// "mmstartup -a", and "mmchconfig ARGS".
func (c *Cluster) Events() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.events)
}

// State returns a node's daemon state.
func (c *Cluster) State(node string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state[node]
}

// SetState sets a node's daemon state.
func (c *Cluster) SetState(node, state string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.state[node] = state
}

// resolved is the configuration that applies to node: cluster-wide values,
// overridden by the node's own sections. Caller holds mu.
func (c *Cluster) resolved(node string) map[string]string {
	out := map[string]string{}
	for _, own := range []bool{false, true} {
		for _, e := range c.Config {
			if (len(e.Nodes) > 0) == own && (!own || slices.Contains(e.Nodes, node)) {
				out[e.Attr] = e.Value
			}
		}
	}
	return out
}

func (c *Cluster) mmlsconfig() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	b.WriteString("mmlsconfig::HEADER:version:reserved:reserved:configParameter:value:nodeList:\n")
	for _, e := range c.Config {
		nodes := "common"
		if len(e.Nodes) > 0 {
			nodes = strings.Join(e.Nodes, ",")
		}
		fmt.Fprintf(&b, "mmlsconfig::0:1:::%s:%s:%s:\n", e.Attr, yEscape(e.Value), nodes)
	}
	return b.String()
}

func yEscape(s string) string { return strings.ReplaceAll(s, ":", "%3A") }

func (c *Cluster) mmdiag(node string) moduletest.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state[node] != "active" {
		return moduletest.Reply{RC: 1, Stderr: "mmdiag: The GPFS daemon is not running on this node.\n"}
	}
	var b strings.Builder
	b.WriteString("mmdiag:config:HEADER:version:reserved:reserved:name:value:changed:\n")
	eff := c.effective[node]
	keys := make([]string, 0, len(eff))
	for k := range eff {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := eff[k]
		if n, err := gpfscmd.ParseSize(v); err == nil && strings.EqualFold(k, "pagepool") {
			v = fmt.Sprint(n) // the daemon prints sizes in bytes
		}
		fmt.Fprintf(&b, "mmdiag:config:0:1:::%s:%s:static:\n", k, yEscape(v))
	}
	return moduletest.Reply{Stdout: b.String()}
}
