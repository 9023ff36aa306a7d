package lab

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// Whether a command changed the node's state, as the audit log says.
const (
	ChangedYes     = "yes"     // a simulated tool wrote state
	ChangedNo      = "no"      // only simulated tools and read-only commands ran
	ChangedUnknown = "unknown" // other commands ran: they may have changed something
)

// AuditEntry is one command a node received (DIR/nodes/NAME/audit.jsonl).
type AuditEntry struct {
	Time        time.Time `json:"time"`
	Command     string    `json:"command"`
	Mode        string    `json:"mode"`            // exec, shell or sftp
	Exit        int       `json:"exit"`            // -1 when no status reached the client
	Fault       string    `json:"fault,omitempty"` // "dropped" or "hung" when a fault acted
	Changed     string    `json:"changed"`
	SimTools    []string  `json:"sim_tools,omitempty"`    // simulated tools the command ran
	StateWrites []string  `json:"state_writes,omitempty"` // state files they wrote
	Duration    float64   `json:"duration_s"`
}

// ReadAudit returns the audit log of one node, oldest first.
func ReadAudit(dir, node string) ([]AuditEntry, error) {
	f, err := os.Open(filepath.Join(dir, "nodes", node, "audit.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read audit: %w", err)
	}
	defer f.Close()
	var out []AuditEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for line := 1; sc.Scan(); line++ {
		var e AuditEntry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return out, fmt.Errorf("read audit %s line %d: %w", node, line, err)
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

func (n *node) audit(e AuditEntry) {
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	f, err := os.OpenFile(filepath.Join(n.dir, "audit.jsonl"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

func readMarks(n *node, id string) (tools, writes []string, err error) {
	return sim.ReadMarks(n.lab.dir, n.model.Name, id)
}

// readOnly are commands that only read, for the audit's "changed" verdict.
var readOnly = []string{"cat", "grep", "egrep", "fgrep", "head", "tail", "wc", "sort", "uniq", "cut", "tr",
	"echo", "printf", "true", "false", "test", "[", "ls", "hostname", "uname", "id", "whoami", "date", "sleep",
	"env", "which", "command", "type", "pwd", "stat", "readlink", "basename", "dirname", "column", "nproc",
	"free", "df", "lsmod", "awk", "seq", "xargs", "jq", "exit"}

// classify decides whether a command may have changed the node: "yes" when
// a simulated tool wrote state; "no" when every simple command in it is a
// simulated tool or a read-only utility with no output redirection;
// otherwise "unknown".
func classify(command, mode string, tools, writes, simNames []string) string {
	if len(writes) > 0 {
		return ChangedYes
	}
	if mode != "exec" {
		return ChangedUnknown
	}
	for _, seg := range segments(command) {
		f := strings.Fields(seg)
		for len(f) > 0 && strings.Contains(f[0], "=") && !strings.HasPrefix(f[0], "=") {
			f = f[1:] // VAR=value prefixes
		}
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue // empty, or a comment line such as prova's "# prova-run:<id>" tag
		}
		if len(f) == 2 && f[0] == "export" && strings.HasPrefix(f[1], "PROVA_RUN=") {
			continue // prova's run tag in the environment
		}
		w := filepath.Base(f[0])
		if !slices.Contains(simNames, w) && !slices.Contains(readOnly, w) {
			return ChangedUnknown
		}
	}
	return ChangedNo
}

// segments splits a shell command into simple commands at | ; & && || and
// newlines outside quotes. Any redirection to a file, command substitution
// or subshell makes the whole command one opaque segment "?".
func segments(cmd string) []string {
	var out []string
	var cur strings.Builder
	quote := byte(0)
	for i := 0; i < len(cmd); i++ {
		c := cmd[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' && i+1 < len(cmd) {
				cur.WriteByte(c)
				i++
				c = cmd[i]
			}
			cur.WriteByte(c)
			continue
		case c == '\'' || c == '"':
			quote = c
			cur.WriteByte(c)
			continue
		case c == '\\' && i+1 < len(cmd):
			cur.WriteByte(cmd[i+1])
			i++
			continue
		case c == '`' || c == '$' && i+1 < len(cmd) && cmd[i+1] == '(' || c == '(' || c == ')' || c == '{' || c == '}':
			return []string{"?"}
		case c == '>':
			if strings.HasPrefix(cmd[i:], ">&") {
				i++ // 2>&1
				continue
			}
			if !strings.HasPrefix(strings.TrimSpace(strings.TrimLeft(cmd[i+1:], ">")), "/dev/null") {
				return []string{"?"}
			}
			continue
		case c == '|' || c == ';' || c == '&' || c == '\n':
			out = append(out, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteByte(c)
	}
	return append(out, cur.String())
}
