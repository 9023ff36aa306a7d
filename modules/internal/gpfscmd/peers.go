package gpfscmd

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/gpfs"
	"github.com/provadev/prova/parse/text"
)

// VerbsConnSpellings are the two spellings of the command seen in public
// scripts, tried in this order: a usage message for the first makes prova
// try the second.
var VerbsConnSpellings = []string{"conn", "conns"}

// ConnRead is what reading the RDMA connections of a node gave.
type ConnRead struct {
	Conns   *gpfs.VerbsConns
	Raw     string // stdout (and stderr, when the command failed)
	Command string // the command as run, e.g. "mmfsadm test verbs conn"
	Down    string // when mmfsadm could not reach the daemon: what it said
	// Note says why mmdiag --verbs -Y was not used, when it was tried.
	Note string
}

// VerbsConn reads the RDMA connections of h: from mmdiag --verbs -Y where
// the release has it and prints a connection table prova reads (preferred:
// IBM documents it), else from mmfsadm test verbs conn (or "conns", when
// "conn" gives a usage message). A daemon that mmfsadm cannot reach gives
// no connections and Down names why. Output the parser cannot read is an
// *UnreadableError: never "no connections".
func VerbsConn(ctx context.Context, h module.Host) (ConnRead, error) {
	r, ok, err := diagVerbs(ctx, h)
	if err != nil || ok {
		return r, err
	}
	note := r.Note
	r, err = mmfsadmConns(ctx, h)
	r.Note = note
	return r, err
}

// DiagVerbsCommand is the connection listing of Storage Scale 6.0.1 and
// later; its format is unverified (docs/gpfs-verbs-conn.md).
var DiagVerbsCommand = MM("mmdiag", "--verbs", "-Y")

// diagVerbs tries mmdiag --verbs -Y. ok is true when it printed a
// connection table prova reads; a release without the option, a daemon
// that is down, or -Y output without such a table gives ok false (the
// caller asks mmfsadm) and a Note. Malformed -Y output is an
// UnreadableError.
func diagVerbs(ctx context.Context, h module.Host) (ConnRead, bool, error) {
	r := ConnRead{Command: "mmdiag --verbs -Y"}
	out, err := Probe(ctx, h, DiagVerbsCommand)
	if err != nil {
		return r, false, err
	}
	if out.RC != 0 {
		r.Note = "mmdiag --verbs -Y not available (" + LastLine(out) + ")"
		return r, false, nil
	}
	c, err := gpfs.ParseMmdiagVerbsY([]byte(out.Stdout))
	if err != nil {
		var pe *parse.Error
		if errors.As(err, &pe) {
			return r, false, &UnreadableError{Host: h.Name(), Command: r.Command, Err: pe}
		}
		return r, false, ParseFailure(h, err)
	}
	if c.NoTable {
		r.Note = "mmdiag --verbs -Y has no connection table prova reads (sections: " + strings.Join(c.Columns, ", ") + ")"
		return r, false, nil
	}
	r.Conns, r.Raw = c, out.Stdout
	return r, true, nil
}

// mmfsadmConns reads mmfsadm test verbs conn (or conns).
func mmfsadmConns(ctx context.Context, h module.Host) (ConnRead, error) {
	var r ConnRead
	var out module.Output
	for i, sp := range VerbsConnSpellings {
		r.Command = "mmfsadm test verbs " + sp
		var err error
		out, err = Probe(ctx, h, MM("mmfsadm", "test", "verbs", sp))
		if err != nil {
			return r, err
		}
		if NotInstalled(out) {
			return r, Failure(h, "mmfsadm", out)
		}
		if out.RC == 0 || !usageMessage(out) || i == len(VerbsConnSpellings)-1 {
			break
		}
	}
	r.Raw = out.Stdout
	if out.RC != 0 {
		if usageMessage(out) {
			return r, fmt.Errorf("mmfsadm on %s knows neither %q: %s; %s", h.Name(), VerbsConnSpellings, LastLine(out), collectHint(h))
		}
		r.Raw += out.Stderr
		r.Conns, r.Down = &gpfs.VerbsConns{Conns: []gpfs.VerbsConn{}}, LastLine(out)
		return r, nil
	}
	c, err := gpfs.ParseVerbsConnText(out.Stdout) // the rows are substrings of the raw text kept as evidence
	if err != nil {
		var pe *parse.Error
		if errors.As(err, &pe) {
			return r, &UnreadableError{Host: h.Name(), Command: r.Command, Err: pe}
		}
		return r, ParseFailure(h, err)
	}
	if c.Truncated {
		lines := strings.Split(strings.TrimRight(out.Stdout, "\n"), "\n")
		return r, &UnreadableError{Host: h.Name(), Command: r.Command, Err: &parse.Error{Tool: r.Command, Line: len(lines),
			Text: lines[len(lines)-1], Reason: "the output ends in the middle of this line (cut short)"}}
	}
	r.Conns = c
	return r, nil
}

// usageMessage reports whether a failed mmfsadm printed a usage or
// unknown-subcommand message rather than a daemon error.
func usageMessage(out module.Output) bool {
	s := strings.ToLower(out.Stdout + out.Stderr)
	if strings.Contains(s, "daemon") {
		return false
	}
	for _, w := range []string{"usage", "unsupported", "unknown", "invalid", "unrecognized"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// UnreadableError is output of the connection check that prova could not
// read. It is never evidence of TCP fallback: the step fails and points
// the operator at `prova collect`.
type UnreadableError struct {
	Host, Command string
	Err           *parse.Error
}

func (e *UnreadableError) Error() string {
	where := ""
	if e.Err.Line > 0 {
		where = fmt.Sprintf(", line %d", e.Err.Line)
	}
	msg := fmt.Sprintf("prova could not read `%s` on %s%s: %s", e.Command, e.Host, where, e.Err.Reason)
	if e.Err.Line > 0 {
		msg += fmt.Sprintf(": %q", text.Clip(e.Err.Text))
	}
	return msg + "; this is not evidence of TCP fallback: " + collectHintName(e.Host)
}

func (e *UnreadableError) Unwrap() error { return e.Err }

func collectHint(h module.Host) string { return collectHintName(h.Name()) }

func collectHintName(host string) string {
	return fmt.Sprintf("run `prova collect -i INVENTORY --limit %s` and attach the bundle to a bug report (docs/support.md)", host)
}

// PeerReport is the RDMA picture of one node: which peers it should reach and
// which it reaches over a connected RDMA connection.
type PeerReport struct {
	Self     string   // this node's daemon name ("" when not found)
	Expected []string // daemon names (or names as given, when not in the cluster)
	RDMA     []string // expected peers with a connected row
	Missing  []string // expected peers without one: they talk TCP
	// MissingState says, per missing peer, what verbs conn shows for it:
	// NoEntry, or the states of its rows as printed ("connecting",
	// "error, connecting"), distinct, in the order of the rows.
	MissingState map[string]string
	Unexpected   []string // connected rows matching no expected peer
	Notes        []string
}

// NoEntry is the MissingState of a peer without a row in verbs conn.
const NoEntry = "no entry"

// Report matches conns against the expected peers: expected is a list of
// names or IPs, or nil for every cluster node but self. A row matches a
// peer by its destination address or its node name, each looked up among
// every name and address mmlscluster gives (NodeIndex): the work is linear
// in the number of peers and rows.
func Report(cl *gpfs.Cluster, self gpfs.ClusterNode, selfFound bool, conns *gpfs.VerbsConns, expected []string, host string) PeerReport {
	r := PeerReport{Expected: []string{}, RDMA: []string{}, Missing: []string{}, MissingState: map[string]string{}, Unexpected: []string{}}
	if selfFound {
		r.Self = self.DaemonName
	} else {
		r.Notes = append(r.Notes, fmt.Sprintf("%s is not in mmlscluster by name or address; expecting every listed node", host))
	}
	idx := IndexNodes(cl)
	isSelf := func(n gpfs.ClusterNode) bool { return selfFound && n.DaemonName == self.DaemonName }
	var names []string         // expected peers, in order
	byNode := map[int]int{}    // cluster position -> expected peer
	byName := map[string]int{} // expected peers not in the cluster, by lowercased name
	if expected == nil {
		for i, n := range cl.Nodes {
			if isSelf(n) {
				continue
			}
			byNode[i] = len(names)
			names = append(names, n.DaemonName)
		}
	} else {
		for _, e := range expected {
			if n, i, ok := idx.Find(e); ok {
				if _, dup := byNode[i]; dup || isSelf(n) {
					continue
				}
				byNode[i] = len(names)
				names = append(names, n.DaemonName)
				continue
			}
			r.Notes = append(r.Notes, fmt.Sprintf("expected peer %s is not in mmlscluster; matched by name only", e))
			byName[strings.ToLower(e)] = len(names)
			names = append(names, e)
		}
	}
	connected := make([]bool, len(names))
	states := map[int][]string{} // the row states of peers not connected
	seen := map[string]bool{}
	for _, c := range conns.Conns {
		p, node, inCluster := peerOf(idx, c, byNode, byName)
		if p >= 0 {
			connected[p] = connected[p] || c.Connected
			if st := rowState(c); !c.Connected && !slices.Contains(states[p], st) {
				states[p] = append(states[p], st)
			}
			continue
		}
		if !c.Connected {
			continue
		}
		name := c.Dest
		switch {
		case inCluster:
			name = node.DaemonName
		case c.Name != "":
			name = c.Name
		}
		if !seen[name] && !(inCluster && isSelf(node)) && !(selfFound && name == self.DaemonName) {
			seen[name] = true
			r.Unexpected = append(r.Unexpected, name)
		}
	}
	for i, n := range names {
		r.Expected = append(r.Expected, n)
		if connected[i] {
			r.RDMA = append(r.RDMA, n)
		} else {
			r.Missing = append(r.Missing, n)
			r.MissingState[n] = NoEntry
			if st := states[i]; len(st) > 0 {
				r.MissingState[n] = strings.Join(st, ", ")
			}
		}
	}
	return r
}

// rowState is a row's state as printed, "(no state)" when it has none.
func rowState(c gpfs.VerbsConn) string {
	if st := strings.TrimSpace(c.State); st != "" {
		return st
	}
	return "(no state)"
}

// peerOf returns the expected peer (its position, -1 for none) a
// connection row belongs to, and the cluster node it names, if any.
func peerOf(idx *NodeIndex, c gpfs.VerbsConn, byNode map[int]int, byName map[string]int) (int, gpfs.ClusterNode, bool) {
	for _, q := range []string{c.Dest, c.Name} {
		if n, i, ok := idx.Find(q); ok {
			if p, ok := byNode[i]; ok {
				return p, n, true
			}
			return -1, n, true
		}
	}
	if len(byName) > 0 && c.Name != "" {
		l := strings.ToLower(c.Name)
		if p, ok := byName[l]; ok {
			return p, gpfs.ClusterNode{}, false
		}
		short, _, _ := strings.Cut(l, ".")
		for name, p := range byName { // names outside the cluster: few
			if SameNode(name, short) || SameNode(name, l) {
				return p, gpfs.ClusterNode{}, false
			}
		}
	}
	return -1, gpfs.ClusterNode{}, false
}
