package lab

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/scenario"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/all"
	"github.com/provadev/prova/lab/sim/gpfs"
	"github.com/provadev/prova/lab/sshserve"
)

// keyComment is the comment in the private keys the lab writes.
const keyComment = "prova-lab"

// Options configure a lab.
type Options struct {
	Dir      string // state directory; created if missing
	Nodes    int    // node count; 0 = the scenario's, else 3
	Scenario string // scenario file; "" = every node healthy
	Binary   string // the prova binary the nodes' tools and commands run
	// ShellOnly runs every command through /bin/sh in the node's mount
	// namespace, even a plain call of a simulated tool that the server
	// would otherwise run in process (tests compare the two paths).
	ShellOnly bool
}

// Node is what a client needs to reach one node.
type Node struct {
	Name    string
	Address string // always 127.0.0.1
	Port    int
	Groups  []string
	SSHDown bool // the scenario keeps this node's SSH server down
}

// Lab is a running simulated cluster.
type Lab struct {
	dir, binary string
	inProcess   bool         // plain calls of simulated tools run in the server
	inProcRuns  atomic.Int64 // how many did (tests read it)
	memo        *sim.Memo    // decoded state shared by in-process runs
	sc          *scenario.Scenario
	table       *sim.Table
	clientKeys  *sshserve.AuthorizedKeys // the lab client key
	ctx         context.Context
	cancel      context.CancelFunc
	wg          sync.WaitGroup

	mu     sync.Mutex // guards nodes and closed
	nodes  []*node
	closed bool
}

// Start lays out opts.Dir and starts every node's SSH server. Existing
// node state in the directory is discarded; the client key is kept.
func Start(ctx context.Context, opts Options) (*Lab, error) {
	if opts.Binary == "" {
		return nil, errors.New("lab: the prova binary is required (Options.Binary)")
	}
	dir, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("lab dir: %w", err)
	}
	bin, err := filepath.Abs(opts.Binary)
	if err != nil {
		return nil, fmt.Errorf("lab binary: %w", err)
	}
	sc, diags := scenario.Load(opts.Scenario)
	if diags.HasErrors() {
		return nil, fmt.Errorf("scenario: %w", diags)
	}
	table, err := all.Table()
	if err != nil {
		return nil, err
	}
	for _, d := range []string{"nodes", "state"} {
		if err := os.RemoveAll(filepath.Join(dir, d)); err != nil {
			return nil, fmt.Errorf("lab dir: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "nodes"), 0o755); err != nil {
		return nil, fmt.Errorf("lab dir: %w", err)
	}
	if common, perNode := sc.GPFSConfig(); common != nil || perNode != nil {
		if err := gpfs.Seed(dir, gpfs.Settings{Config: common, NodeConfig: perNode}); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", sc.Filename, err)
		}
	}
	client, err := sshserve.LoadOrCreateKey(filepath.Join(dir, "id_ed25519"), keyComment, true)
	if err != nil {
		return nil, err
	}
	clientKeys := &sshserve.AuthorizedKeys{}
	clientKeys.Add(client.PublicKey())
	lctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	l := &Lab{dir: dir, binary: bin, inProcess: !opts.ShellOnly, memo: sim.NewMemo(), sc: sc, table: table, clientKeys: clientKeys, ctx: lctx, cancel: cancel}
	count := opts.Nodes
	if count == 0 {
		count = sc.Nodes
	}
	if count == 0 {
		count = 3
	}
	if err := l.Expand(count); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// Dir is the lab's state directory.
func (l *Lab) Dir() string { return l.dir }

// InventoryPath is the HCL inventory of the running nodes.
func (l *Lab) InventoryPath() string { return filepath.Join(l.dir, "inventory.hcl") }

// Nodes lists the nodes in order.
func (l *Lab) Nodes() []Node {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]Node, len(l.nodes))
	for i, n := range l.nodes {
		out[i] = Node{Name: n.model.Name, Address: "127.0.0.1", Port: n.port, Groups: n.model.Groups, SSHDown: n.model.Faults.SSHDown}
	}
	return out
}

// Expand adds n nodes, starts them and rewrites the inventory, like a
// cluster expansion. Nodes already running are not touched.
func (l *Lab) Expand(n int) error {
	if n < 1 {
		return fmt.Errorf("lab expand: node count must be at least 1, got %d", n)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return errors.New("lab expand: lab is closed")
	}
	first := len(l.nodes) + 1
	total := len(l.nodes) + n
	for i := first; i <= total; i++ {
		m, err := l.sc.Node(i, total)
		if err != nil {
			return err
		}
		nd, err := l.startNode(m)
		if err != nil {
			return err
		}
		l.nodes = append(l.nodes, nd)
	}
	if err := l.writeClientFiles(); err != nil {
		return err
	}
	return l.writeMeta()
}

func (l *Lab) startNode(m *model.Node) (*node, error) {
	nodeDir := filepath.Join(l.dir, "nodes", m.Name)
	if err := writeNodeFiles(nodeDir, l.dir, l.binary, m, l.table); err != nil {
		return nil, err
	}
	hk, err := sshserve.LoadOrCreateKey(filepath.Join(nodeDir, "host_key"), keyComment, false)
	if err != nil {
		return nil, err
	}
	nd := &node{lab: l, model: m, dir: nodeDir, hostKey: hk}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("node %s: listen: %w", m.Name, err)
	}
	nd.port = ln.Addr().(*net.TCPAddr).Port
	if m.Faults.SSHDown { // keep the port in the inventory, refuse connections
		ln.Close()
		return nd, nil
	}
	nd.listen(ln)
	return nd, nil
}

// Close stops every node, ending running commands, and waits for them.
func (l *Lab) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	l.cancel()
	for _, n := range l.nodes {
		n.close()
	}
	l.mu.Unlock()
	l.wg.Wait()
	return nil
}

// meta is DIR/lab.json: what Status reads.
type meta struct {
	Scenario string     `json:"scenario"`
	Nodes    []metaNode `json:"nodes"`
}

type metaNode struct {
	Name    string   `json:"name"`
	Port    int      `json:"port"`
	Groups  []string `json:"groups"`
	SSHDown bool     `json:"ssh_down,omitempty"`
}

func (l *Lab) writeMeta() error {
	m := meta{Scenario: l.sc.Filename}
	for _, n := range l.nodes {
		m.Nodes = append(m.Nodes, metaNode{Name: n.model.Name, Port: n.port, Groups: n.model.Groups, SSHDown: n.model.Faults.SSHDown})
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("lab meta: %w", err)
	}
	return writeAtomic(filepath.Join(l.dir, "lab.json"), string(b)+"\n")
}
