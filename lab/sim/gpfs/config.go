package gpfs

import (
	"slices"
	"strings"
)

// Node classes GPFS defines itself; -N accepts them and mmlsconfig shows
// their stanzas as [class].
var classes = []string{"all", "quorumNodes", "nonQuorumNodes", "managerNodes", "nonManagerNodes", "nsdNodes", "clientNodes"}

// inClass reports whether node n belongs to the system node class.
func inClass(n *Node, class string) bool {
	nsd := slices.Contains(n.Groups, "nsd_servers")
	switch class {
	case "all":
		return true
	case "quorumNodes":
		return n.Quorum
	case "nonQuorumNodes":
		return !n.Quorum
	case "managerNodes":
		return n.Manager
	case "nonManagerNodes":
		return !n.Manager
	case "nsdNodes":
		return nsd
	case "clientNodes":
		return !nsd
	}
	return false
}

func isClass(key string) bool { return slices.Contains(classes, key) }

// set stores attr=value in the stanza key ("" = common). Setting a value
// cluster-wide removes the node-specific values of that attribute, as
// mmchconfig without -N does. An empty value deletes (attr=DEFAULT).
func (c *Cluster) set(key, name, value string) {
	if key == "" {
		for i := range c.Stanzas {
			if c.Stanzas[i].Key != "" {
				c.Stanzas[i].Attrs = slices.DeleteFunc(c.Stanzas[i].Attrs, func(kv KV) bool { return kv.Attr == name })
			}
		}
	}
	for i := range c.Stanzas {
		st := &c.Stanzas[i]
		if st.Key != key {
			continue
		}
		for j := range st.Attrs {
			if st.Attrs[j].Attr == name {
				if value == "" {
					st.Attrs = slices.Delete(st.Attrs, j, j+1)
				} else {
					st.Attrs[j].Value = value
				}
				c.dropEmpty()
				return
			}
		}
	}
	if value == "" {
		c.dropEmpty()
		return
	}
	last := &c.Stanzas[len(c.Stanzas)-1]
	if last.Key == key {
		last.Attrs = append(last.Attrs, KV{name, value})
	} else {
		// A new line goes at the end of the file, under its own header.
		c.Stanzas = append(c.Stanzas, Stanza{Key: key, Attrs: []KV{{name, value}}})
	}
	c.dropEmpty()
}

// dropEmpty removes empty stanzas (never the first, cluster-wide one) and
// merges neighbours with the same key.
func (c *Cluster) dropEmpty() {
	out := c.Stanzas[:1]
	for _, st := range c.Stanzas[1:] {
		if len(st.Attrs) == 0 {
			continue
		}
		if prev := &out[len(out)-1]; prev.Key == st.Key {
			prev.Attrs = append(prev.Attrs, st.Attrs...)
			continue
		}
		out = append(out, st)
	}
	c.Stanzas = out
}

// applies reports whether stanza key applies to node n, and how
// specifically: 0 common, 1 node class, 2 node list.
func applies(key string, n *Node) (bool, int) {
	switch {
	case key == "":
		return true, 0
	case isClass(key):
		return inClass(n, key), 1
	}
	return slices.Contains(strings.Split(key, ","), n.Name), 2
}

// configured is the value of attr for node n: a node-list stanza beats a
// node-class stanza, which beats the cluster-wide value; within a level
// the last line wins. ok is false when nothing sets it.
func (c *Cluster) configured(name string, n *Node) (string, bool) {
	best, val := -1, ""
	for _, st := range c.Stanzas {
		ok, level := applies(st.Key, n)
		if !ok || level < best {
			continue
		}
		for _, kv := range st.Attrs {
			if kv.Attr == name {
				best, val = level, kv.Value
			}
		}
	}
	return val, best >= 0
}

// effective is the full configuration a daemon starting on n uses.
func (c *Cluster) effective(n *Node) map[string]string {
	eff := map[string]string{}
	for name, a := range attrs {
		if v, ok := c.configured(name, n); ok {
			eff[name] = v
		} else {
			eff[name] = a.def
		}
	}
	return eff
}
