package gpfscmd

import (
	"context"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/gpfs"
)

// DefaultLogPath is the GPFS log of the current daemon run.
const DefaultLogPath = "/var/adm/ras/mmfs.log.latest"

// LogLines is how many lines at the end of the log are read: enough for a
// daemon run's start and its connection messages, small enough to keep.
const LogLines = 5000

// LogCommand is the read-only command that reads the end of the log.
func LogCommand(path string) string {
	return module.Command("tail", "-n", strconv.Itoa(LogLines), "--", path)
}

// ReadLog reads and parses the end of the GPFS log at path. A log that does
// not exist is not an error: exists is false and l is empty.
func ReadLog(ctx context.Context, h module.Host, path string) (l *gpfs.Log, raw string, exists bool, err error) {
	out, err := Probe(ctx, h, LogCommand(path))
	if err != nil {
		return nil, "", false, err
	}
	if out.RC != 0 {
		if strings.Contains(out.Stderr, "No such file") {
			return &gpfs.Log{Entries: []gpfs.LogEntry{}, Starts: []int{}}, "", false, nil
		}
		return nil, out.Stdout, false, Failure(h, "tail "+path, out)
	}
	l, err = gpfs.ParseMmfsLog([]byte(out.Stdout))
	if err != nil {
		return nil, out.Stdout, true, ParseFailure(h, err)
	}
	return l, out.Stdout, true, nil
}

// LogSummary is what the current daemon run's log says about RDMA.
type LogSummary struct {
	StartFound      bool     // the stretch shows the daemon's start
	VerbsStarted    bool     // "VERBS RDMA started"
	ConnectedTo     []string // peers with a "VERBS RDMA connected to" line (name, else IP)
	Closed          []string // peers with a closed/disconnected line
	LibraryNotFound bool     // the RDMA library could not be loaded
	// PagepoolNotRegistered: the daemon could not register the pagepool
	// with the HCA and shut VERBS RDMA down; PagepoolLines are those
	// messages as printed.
	PagepoolNotRegistered bool
	PagepoolLines         []string
	Errors                []string // error lines ([E] and VERBS RDMA errors), as printed
	Lines                 int      // entries since the start
	// Peers is what the VERBS RDMA lines since the start say per peer
	// (gpfs.VerbsPeers); PeerLines the messages of the lines about closed,
	// disconnected or failed RDMA connections, as printed.
	Peers     []gpfs.VerbsPeerLog
	PeerLines []string
}

// The summary keeps what the diagnosis reads, copied out of the log, and
// not the log's entries: on 1,000 nodes each node's 5,000-line log and
// its parse (a few MB) would otherwise live as long as the module call,
// on every host running at once.

// Summarize reads the entries since the daemon last started.
func Summarize(l *gpfs.Log) LogSummary {
	s := LogSummary{StartFound: l.HasStart(), ConnectedTo: []string{}, Closed: []string{}, Errors: []string{}}
	entries := l.SinceLastStart()
	s.Lines = len(entries)
	for _, e := range entries {
		switch e.Event {
		case gpfs.EventVerbsClosed, gpfs.EventVerbsDisconnected, gpfs.EventVerbsError:
			s.PeerLines = append(s.PeerLines, strings.Clone(e.Message))
		}
	}
	for _, e := range entries {
		switch e.Event {
		case gpfs.EventVerbsStarted:
			s.VerbsStarted = true
		case gpfs.EventVerbsLibraryNotFound:
			s.LibraryNotFound = true
		case gpfs.EventVerbsPagepoolNotRegistered:
			s.PagepoolNotRegistered = true
			s.PagepoolLines = append(s.PagepoolLines, strings.Clone(e.Message))
		}
		if e.Severity == "E" || e.Event == gpfs.EventVerbsError || e.Event == gpfs.EventVerbsLibraryNotFound {
			s.Errors = append(s.Errors, strings.Clone(e.Message))
		}
	}
	s.Peers = gpfs.VerbsPeers(entries)
	for i := range s.Peers {
		s.Peers[i].IP, s.Peers[i].Name = strings.Clone(s.Peers[i].IP), strings.Clone(s.Peers[i].Name)
	}
	for _, p := range s.Peers {
		name := p.Name
		if name == "" {
			name = p.IP
		}
		if p.Connected > 0 {
			s.ConnectedTo = append(s.ConnectedTo, name)
		}
		if p.Closed > 0 {
			s.Closed = append(s.Closed, name)
		}
	}
	return s
}
