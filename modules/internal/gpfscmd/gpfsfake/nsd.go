package gpfsfake

import (
	"fmt"
	"slices"
	"strings"

	"github.com/provadev/prova/engine/module/moduletest"
)

// NSD is one network shared disk and its servers, primary first.
type NSD struct {
	Name    string
	Servers []string
}

// mmlsnsd prints the default table (File system, Disk name, NSD servers).
func (c *Cluster) mmlsnsd() moduletest.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.NSDs) == 0 {
		return moduletest.Reply{RC: 1, Stderr: "mmlsnsd: No disks were found.\n"}
	}
	var b strings.Builder
	b.WriteString("\n File system   Disk name    NSD servers\n---------------------------------------------------------------------------\n")
	for _, d := range c.NSDs {
		fmt.Fprintf(&b, " %-13s %-12s %s\n", "gpfs0", d.Name, strings.Join(d.Servers, ","))
	}
	return moduletest.Reply{Stdout: b.String()}
}

// fsUp: every NSD has a server whose daemon is not down. Caller holds mu.
func (c *Cluster) fsUp() bool {
	for _, d := range c.NSDs {
		if !slices.ContainsFunc(d.Servers, func(s string) bool { return c.state[s] != "down" }) {
			return false
		}
	}
	return len(c.NSDs) > 0
}

// mmlsmount prints "mmlsmount all -L": gpfs0 on every active node while
// the disks are reachable.
func (c *Cluster) mmlsmount() moduletest.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.NSDs) == 0 {
		return moduletest.Reply{RC: 1, Stderr: "mmlsmount: No file systems were found.\n"}
	}
	var on []Node
	for _, n := range c.Nodes {
		if c.state[n.Name] == "active" && c.fsUp() && !slices.Contains(c.NeverMounts, n.Name) {
			on = append(on, n)
		}
	}
	if len(on) == 0 {
		return moduletest.Reply{Stdout: "File system gpfs0 is not mounted.\n"}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "File system gpfs0 is mounted on %d nodes:\n", len(on))
	for _, n := range on {
		fmt.Fprintf(&b, "  %-15s %s\n", n.IP, n.Name)
	}
	c.mountPolls++
	return moduletest.Reply{Stdout: b.String()}
}

// marker handles the restart marker file: cat, the printf that writes
// it, rm -f.
func (c *Cluster) markerCmd(cmd string) moduletest.Reply {
	c.mu.Lock()
	defer c.mu.Unlock()
	w := words(cmd)
	switch {
	case strings.HasPrefix(cmd, "cat "):
		return moduletest.Reply{Stdout: c.marker}
	case strings.HasPrefix(cmd, "rm -f "):
		c.marker = ""
		c.events = append(c.events, "marker cleared")
		return moduletest.Reply{}
	}
	k := slices.Index(w, "%s")
	if k < 0 || k+1 >= len(w) {
		return moduletest.Reply{RC: 2, Stderr: "fake: cannot read the marker write\n"}
	}
	c.marker = w[k+1]
	c.events = append(c.events, "marker "+strings.Join(markerNodes(c.marker), ","))
	return moduletest.Reply{}
}

func markerNodes(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if v, ok := strings.CutPrefix(l, "node="); ok {
			out = append(out, v)
		}
	}
	return out
}

// Marker returns the restart marker's content ("" when there is none).
func (c *Cluster) Marker() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.marker
}

// SetMarker writes the marker as an interrupted run would have left it.
func (c *Cluster) SetMarker(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.marker = s
}
