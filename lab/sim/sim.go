package sim

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"time"

	"github.com/provadev/prova/lab/model"
)

// Tool is one simulated command.
type Tool struct {
	Name string
	// Installed reports whether a node with this model has the tool; nil
	// means every node has it. A tool that is not installed is absent from
	// the node's PATH, so the shell reports it as not found.
	Installed func(*model.Node) bool
	// Paths are absolute paths where a node that has the tool also has it,
	// besides its PATH (gdscheck lives in /usr/local/cuda/gds/tools).
	Paths []string
	// Run runs the tool and returns its exit status.
	Run func(ctx context.Context, e *Env) int
	// InProcess says the tool may run inside the lab server, without a
	// shell or a mount namespace, when a command line is nothing but a
	// call of it: it reads and writes only through its Env (state files,
	// Root()), never a path named on its command line, the process's own
	// environment, working directory or hostname, and it never exits the
	// process.
	InProcess bool
}

// Table is an explicit set of tools, built once by the caller.
type Table struct{ tools map[string]Tool }

// NewTable builds a table; a duplicate or unnamed tool is an error.
func NewTable(tools ...Tool) (*Table, error) {
	t := &Table{tools: map[string]Tool{}}
	for _, tool := range tools {
		if tool.Name == "" || tool.Run == nil {
			return nil, fmt.Errorf("sim tool %q: name and run are required", tool.Name)
		}
		if _, dup := t.tools[tool.Name]; dup {
			return nil, fmt.Errorf("sim tool %q registered twice", tool.Name)
		}
		t.tools[tool.Name] = tool
	}
	return t, nil
}

// Lookup finds a tool by name.
func (t *Table) Lookup(name string) (Tool, bool) {
	tool, ok := t.tools[name]
	return tool, ok
}

// Names returns the sorted tool names.
func (t *Table) Names() []string {
	names := make([]string, 0, len(t.tools))
	for n := range t.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Installed returns the sorted names of the tools a node has.
func (t *Table) Installed(n *model.Node) []string {
	var names []string
	for _, name := range t.Names() {
		if tool := t.tools[name]; tool.Installed == nil || tool.Installed(n) {
			names = append(names, name)
		}
	}
	return names
}

// Run runs the named tool in e and records that it ran.
func (t *Table) Run(ctx context.Context, name string, e *Env) int {
	tool, ok := t.tools[name]
	if !ok {
		fmt.Fprintf(e.Stderr, "prova lab sim: unknown tool %q\n", name)
		return 127
	}
	e.tool = name
	if err := e.mark("tool " + name); err != nil {
		fmt.Fprintf(e.Stderr, "prova lab sim: %v\n", err)
		return 1
	}
	return tool.Run(ctx, e)
}

// Env is what a running tool sees.
type Env struct {
	Dir    string   // the lab directory
	Node   string   // the node's name
	CmdID  string   // the audit id of the SSH command, "" outside one
	Args   []string // arguments after the tool name
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	Now    func() time.Time
	// Sleep waits d or until ctx ends.
	Sleep func(ctx context.Context, d time.Duration) error
	// Memo, when set, keeps decoded state between commands (memo.go).
	Memo *Memo

	tool  string
	model *model.Node
}

// NodeDir is the node's directory in the lab.
func (e *Env) NodeDir() string { return filepath.Join(e.Dir, "nodes", e.Node) }

// Root is the node's file tree, seen by commands at the real paths
// (Root()/var/adm/ras is /var/adm/ras on the node).
func (e *Env) Root() string { return filepath.Join(e.NodeDir(), "root") }

// Model is the node's hardware model, read once.
func (e *Env) Model() (*model.Node, error) {
	if e.model == nil {
		m, err := model.Load(e.NodeDir())
		if err != nil {
			return nil, err
		}
		e.model = m
	}
	return e.model, nil
}

// Env returns the value of an environment variable of the command.
func (e *Env) Env(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// Fail prints "tool: msg" on stderr and returns status 1, for errors of
// the simulator itself (not of the simulated hardware).
func (e *Env) Fail(err error) int {
	fmt.Fprintf(e.Stderr, "%s: prova lab simulator error: %v\n", e.tool, err)
	return 1
}

// SleepContext is the Sleep of a real run: it waits d or until ctx ends.
func SleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
