package gpfs

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// StateName is the cluster-wide state file: DIR/state/gpfs.json.
const StateName = "gpfs"

// DefaultSettle is how long a started daemon stays arbitrating.
const DefaultSettle = 2 * time.Second

// Cluster is the simulated GPFS cluster: configuration and daemons.
type Cluster struct {
	Name string `json:"name"`
	ID   uint64 `json:"id"`
	// Settle is how long a daemon stays arbitrating after it starts.
	Settle time.Duration `json:"settle"`
	// ClockOffset is added to the wall clock (tests move time forward).
	ClockOffset time.Duration `json:"clock_offset,omitempty"`
	Stanzas     []Stanza      `json:"stanzas"` // mmfs.cfg, in file order
	Nodes       []Node        `json:"nodes"`   // in node number order
	Cookie      int           `json:"cookie"`  // last RDMA connection cookie
	// QuorumAt is when the running quorum nodes last became a majority:
	// daemons waiting for quorum arbitrate for Settle from then.
	QuorumAt time.Time `json:"quorum_at,omitempty"`
	// UserClasses are the user-defined node classes (nodeclass.go).
	UserClasses []UserClass `json:"user_classes,omitempty"`

	idx map[string]int // node name to index in Nodes, built by node
}

// Stanza is one section of mmfs.cfg: Key "" is the cluster-wide part
// ([common]); otherwise a node class or a comma-separated node list.
type Stanza struct {
	Key   string `json:"key"`
	Attrs []KV   `json:"attrs"`
}

// KV is one configured attribute.
type KV struct {
	Attr  string `json:"attr"`
	Value string `json:"value"`
}

// Node is one cluster member and its daemon.
type Node struct {
	Name    string   `json:"name"`
	Number  int      `json:"number"`
	Address string   `json:"address"`
	Quorum  bool     `json:"quorum"`
	Manager bool     `json:"manager"`
	Groups  []string `json:"groups,omitempty"`

	Started   bool      `json:"started"`
	StartedAt time.Time `json:"started_at,omitempty"`
	Ready     bool      `json:"ready,omitempty"` // "mmfsd ready" logged
	PID       int       `json:"pid,omitempty"`
	// Eff is the daemon's effective configuration (snapshot at start,
	// updated by mmchconfig -i/-I); How says "static" or "dynamic" for
	// values that differ from the default.
	Eff   map[string]string `json:"eff,omitempty"`
	How   map[string]string `json:"how,omitempty"`
	Verbs bool              `json:"verbs"` // VERBS RDMA started
	Ports []VPort           `json:"ports,omitempty"`
	Conns []Conn            `json:"conns,omitempty"`
	Index int               `json:"index"` // next RDMA connection index
	// LogAt is the time of the node's last mmfs.log line: lines never go
	// back in time.
	LogAt time.Time `json:"log_at,omitempty"`
}

// VPort is a verbsPorts entry the daemon opened.
type VPort struct {
	Dev       string `json:"dev"`
	Port      int    `json:"port"`
	Fabnum    int    `json:"fabnum"`
	LinkLayer string `json:"link_layer"`
}

// Conn is one RDMA connection of a node to a peer.
type Conn struct {
	Peer   string `json:"peer"`
	Dev    string `json:"dev"`
	Port   int    `json:"port"`
	Index  int    `json:"index"`
	Cookie int    `json:"cookie"`
}

func (c *Cluster) node(name string) *Node {
	if i, ok := c.idx[name]; ok && i < len(c.Nodes) && c.Nodes[i].Name == name {
		return &c.Nodes[i]
	}
	if len(c.idx) == len(c.Nodes) && c.idx != nil {
		return nil // the index is complete: no such node
	}
	c.idx = make(map[string]int, len(c.Nodes))
	for i := range c.Nodes {
		c.idx[c.Nodes[i].Name] = i
	}
	if i, ok := c.idx[name]; ok {
		return &c.Nodes[i]
	}
	return nil
}

// quorumNeeded is the majority of the quorum nodes.
func (c *Cluster) quorumNeeded() int {
	q := 0
	for _, n := range c.Nodes {
		if n.Quorum {
			q++
		}
	}
	return q/2 + 1
}

// hasQuorum reports whether enough quorum nodes run a daemon: a majority,
// or with tiebreaker disks (node quorum with tiebreaker disks) one quorum
// node and a reachable disk.
func (c *Cluster) hasQuorum() bool {
	up := 0
	for _, n := range c.Nodes {
		if n.Quorum && n.Started {
			up++
		}
	}
	if c.tiebreaker() {
		return up >= 1 && c.fsAvailable()
	}
	return up >= c.quorumNeeded()
}

// tiebreaker reports whether tiebreakerDisks is set cluster-wide.
func (c *Cluster) tiebreaker() bool {
	for _, st := range c.Stanzas {
		for _, kv := range st.Attrs {
			if st.Key == "" && kv.Attr == "tiebreakerDisks" && kv.Value != "" {
				return true
			}
		}
	}
	return false
}

// State is a node's GPFS state at time now: down, arbitrating or active.
func (c *Cluster) State(n *Node, now time.Time) string {
	switch {
	case !n.Started:
		return "down"
	case now.Before(c.activeAt(n)) || !c.hasQuorum():
		return "arbitrating"
	}
	return "active"
}

// activeAt is when a started daemon turns active, given quorum.
func (c *Cluster) activeAt(n *Node) time.Time {
	t := n.StartedAt
	if c.QuorumAt.After(t) {
		t = c.QuorumAt
	}
	return t.Add(c.Settle)
}

// session is one command's view: the env, the state and the models.
type session struct {
	e      *sim.Env
	c      *Cluster
	models map[string]*model.Node
	now    time.Time
	logs   *logs
	// joining: daemons of nodes joining the cluster start (faults that
	// hit a restart do not apply).
	joining bool
}

// open loads the cluster state, creating or extending it from the node
// models without recording a change, and runs fn under the state's lock.
// fn reports whether it changed the state; only then is the change
// recorded for the audit log.
func open(e *sim.Env, fn func(s *session) (bool, error)) error {
	models, err := loadModels(e)
	if err != nil {
		return err
	}
	var c Cluster
	var s *session
	quiet := *e
	quiet.CmdID = "" // joining nodes is not a change made by this command
	synced := false
	err = sim.UpdateShared(&quiet, quiet.ClusterState(StateName), &c, (*Cluster).clone, func() (bool, error) {
		s = newSession(e, &c, models)
		synced = s.sync()
		return synced, s.flush()
	})
	if err != nil {
		return err
	}
	err = sim.UpdateShared(e, e.ClusterState(StateName), &c, (*Cluster).clone, func() (bool, error) {
		s = newSession(e, &c, models)
		changed, err := fn(s)
		if err != nil {
			return false, err
		}
		if err := s.flush(); err != nil {
			return false, err
		}
		for _, p := range s.logs.written() {
			if err := e.MarkChanged(p); err != nil {
				return false, err
			}
		}
		return changed, nil
	})
	return err
}

func newSession(e *sim.Env, c *Cluster, models map[string]*model.Node) *session {
	s := &session{e: e, c: c, models: models, now: e.Now().Add(c.ClockOffset), logs: newLogs(e.Dir)}
	for _, n := range c.Nodes {
		s.logs.at(n.Name, n.LogAt)
	}
	return s
}

// flush writes the collected log lines and remembers each node's last
// log time.
func (s *session) flush() error {
	for i := range s.c.Nodes {
		n := &s.c.Nodes[i]
		if t := s.logs.clock[n.Name]; t.After(n.LogAt) {
			n.LogAt = t
		}
	}
	return s.logs.flush()
}

// sync creates the cluster at first use and adds nodes that joined the lab.
func (s *session) sync() bool {
	c := s.c
	changed := false
	if c.Name == "" {
		changed = true
		if c.Settle == 0 {
			c.Settle = DefaultSettle
		}
		seeded := c.Stanzas
		c.Name = "lab.prova"
		for _, m := range s.models {
			c.Name = m.Cluster
			break
		}
		h := fnv.New64a()
		h.Write([]byte(c.Name))
		c.ID = 1000000000000000000 + h.Sum64()%8000000000000000000
		c.Stanzas = []Stanza{{Attrs: []KV{{"clusterName", c.Name}, {"clusterId", fmt.Sprint(c.ID)},
			{"dmapiFileHandleSize", "32"}, {"minReleaseLevel", "5.1.9.0"}, {"ccrEnabled", "yes"}, {"cipherList", "AUTHONLY"}, {"autoload", "no"}}}}
		for _, st := range seeded { // scenario settings (Seed)
			for _, kv := range st.Attrs {
				c.set(st.Key, kv.Attr, kv.Value)
			}
		}
	}
	var names []string
	for name, m := range s.models {
		if c.node(name) == nil && slices.Contains(m.FileSystems, "gpfs") {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool { return s.models[names[i]].Index < s.models[names[j]].Index })
	if len(names) == 0 {
		return changed
	}
	grouped := false
	for _, m := range s.models {
		grouped = grouped || isQuorumModel(m)
	}
	for _, name := range names {
		m := s.models[name]
		q := isQuorumModel(m)
		if !grouped {
			q = s.countQuorum() < 3
		}
		c.Nodes = append(c.Nodes, Node{Name: name, Number: m.Index, Address: m.DataAddress, Quorum: q, Manager: q, Groups: m.Groups})
	}
	// A cluster with fewer than three quorum nodes needs tiebreaker disks
	// (IBM's rule for two-node clusters; the real 2-node sample sets
	// tiebreakerDisks to its first NSD).
	if !c.tiebreaker() && s.countQuorum() < 3 {
		if nsds := c.nsds(); len(nsds) > 0 {
			c.set("", "tiebreakerDisks", nsds[0].name)
		}
	}
	// Joining daemons came up before this command: active already.
	s.joining = true
	for _, name := range names {
		s.start(name, s.now.Add(-c.Settle-time.Second))
	}
	s.joining = false
	s.markReady()
	return true
}

func (s *session) countQuorum() int {
	q := 0
	for _, n := range s.c.Nodes {
		if n.Quorum {
			q++
		}
	}
	return q
}

func isQuorumModel(m *model.Node) bool {
	return slices.Contains(m.Groups, "quorum") || slices.Contains(m.Groups, "nsd_servers")
}

// loadModels reads every node model of the lab; with a memo, once per
// set of nodes. The models are shared: never change them.
func loadModels(e *sim.Env) (map[string]*model.Node, error) {
	dir := e.Dir
	// The nodes directory changes (its modification time) when lab expand
	// adds a node; reading its 1,000 entries on every command to see
	// whether it did was a tenth of the lab's CPU at 500 nodes.
	fi, err := os.Stat(filepath.Join(dir, "nodes"))
	if err != nil {
		return nil, fmt.Errorf("gpfs: read lab nodes: %w", err)
	}
	key := "gpfs models " + dir
	version := fmt.Sprintf("%d %d", fi.ModTime().UnixNano(), fi.Size())
	if m, ok := e.Memo.Load(key, version); ok {
		return m.(map[string]*model.Node), nil
	}
	ents, err := os.ReadDir(filepath.Join(dir, "nodes"))
	if err != nil {
		return nil, fmt.Errorf("gpfs: read lab nodes: %w", err)
	}
	out := map[string]*model.Node{}
	complete := true
	for _, d := range ents {
		if !d.IsDir() {
			continue
		}
		m, err := model.Load(filepath.Join(dir, "nodes", d.Name()))
		if err != nil {
			complete = false
			continue // a node being laid out by lab expand joins later
		}
		out[m.Name] = m
	}
	if complete {
		e.Memo.Store(key, version, out)
	}
	return out, nil
}

// clone copies c so that a command can change the copy without changing
// c: the stanzas are copied; a node's lists are shared with their capacity
// cut, so an append copies them, and its maps are shared: the code that
// changes one in place copies it first (stop for Conns, mmchconfig -i for
// Eff and How). So a clone costs O(nodes), not O(connections).
func (c *Cluster) clone() *Cluster {
	out := *c
	out.idx = nil
	out.Stanzas = make([]Stanza, len(c.Stanzas))
	for i, st := range c.Stanzas {
		out.Stanzas[i] = Stanza{Key: st.Key, Attrs: slices.Clone(st.Attrs)}
	}
	out.UserClasses = make([]UserClass, len(c.UserClasses))
	for i, uc := range c.UserClasses {
		out.UserClasses[i] = UserClass{Name: uc.Name, Members: slices.Clone(uc.Members)}
	}
	out.Nodes = make([]Node, len(c.Nodes))
	for i, n := range c.Nodes {
		n.Ports = n.Ports[:len(n.Ports):len(n.Ports)]
		n.Groups = n.Groups[:len(n.Groups):len(n.Groups)]
		n.Conns = n.Conns[:len(n.Conns):len(n.Conns)]
		out.Nodes[i] = n
	}
	return &out
}
