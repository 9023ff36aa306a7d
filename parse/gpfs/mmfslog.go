package gpfs

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Log is a stretch of mmfs.log (/var/adm/ras/mmfs.log.latest).
type Log struct {
	Entries []LogEntry `json:"entries"`
	// Starts holds the indexes in Entries where a daemon run begins
	// ("runmmfs starting", or "mmfsd initializing" without a preceding
	// runmmfs line), oldest first.
	Starts []int `json:"starts"`
	// Empty is true when the stretch read has no line at all (an empty
	// log file).
	Empty bool `json:"empty,omitempty"`
}

// LogEntry is one line. Lines without a timestamp (script output between
// daemon messages) are kept with a nil Time.
type LogEntry struct {
	Line     int        `json:"line"`
	Time     *time.Time `json:"time,omitempty"`
	Severity string     `json:"severity,omitempty"` // I, N, W, E, D, X ...
	Message  string     `json:"message"`
	Event    string     `json:"event,omitempty"` // see the Event* constants
	Peer     *LogPeer   `json:"peer,omitempty"`
	Library  string     `json:"library,omitempty"` // for EventVerbsLibraryNotFound
}

// LogPeer is the remote end named by a connection message. Numbers absent
// from the message are nil.
type LogPeer struct {
	IP     string `json:"ip"`
	Name   string `json:"name,omitempty"`
	Device string `json:"device,omitempty"`
	Port   *int   `json:"port,omitempty"`
	Fabnum *int   `json:"fabnum,omitempty"`
	Index  *int   `json:"index,omitempty"`
	Cookie *int   `json:"cookie,omitempty"`
	Error  *int   `json:"error,omitempty"`
	// Conn is the TCP connection tag, e.g. "c0n7" in "<c0n7>:[0]".
	Conn string `json:"conn,omitempty"`
}

// Events recognised in mmfs.log messages.
const (
	EventDaemonStart          = "daemon_start"
	EventDaemonReady          = "daemon_ready"
	EventDaemonShutdown       = "daemon_shutdown"
	EventVerbsStarting        = "verbs_starting"
	EventVerbsStarted         = "verbs_started"
	EventVerbsConnecting      = "verbs_connecting"
	EventVerbsConnected       = "verbs_connected"
	EventVerbsClosed          = "verbs_closed"
	EventVerbsDisconnected    = "verbs_disconnected"
	EventVerbsLibraryNotFound = "verbs_library_not_found"
	// EventVerbsPagepoolNotRegistered: the daemon could not register the
	// pagepool with the HCA and shut VERBS RDMA down (or the hint line
	// that follows it: "Try increasing Infiniband device MTTs or reducing
	// pagepool size"); the node talks TCP.
	EventVerbsPagepoolNotRegistered = "verbs_pagepool_not_registered"
	// EventVerbsShutdown: another "VERBS RDMA Shutdown ..." message.
	EventVerbsShutdown = "verbs_shutdown"
	EventVerbsError    = "verbs_error"
	EventVerbsOther    = "verbs_other"
	EventTCPConnecting = "tcp_connecting"
	EventTCPConnected  = "tcp_connected"
	EventTCPClosed     = "tcp_closed"
)

var (
	isoStamp   = regexp.MustCompile(`^\d{4}-\d\d-\d\d_`)
	oldStamp   = regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [A-Z+\-0-9]+)? \d{4}: `)
	severityRe = regexp.MustCompile(`^\[([A-Z])\] `)
	verbsPeer  = regexp.MustCompile(`(?:to|from) (\S+) \(([^)]*)\)(?: on (\S+) port (\d+))?`)
	verbsNum   = regexp.MustCompile(`\b(fabnum|index|cookie|error) (-?\d+)\b`)
	verbsLib   = regexp.MustCompile(`VERBS RDMA(?: library)?:? (\S+) not found`)
	tcpPeer    = regexp.MustCompile(`^(Connecting to|Connected to|Accepted and connected to|Close connection to) (\S+) (\S+)(?: <([a-z0-9]+)>)?`)
)

var oldLayouts = []string{
	"Mon Jan _2 15:04:05.000000 2006", "Mon Jan _2 15:04:05.000 2006", "Mon Jan _2 15:04:05 2006",
	"Mon Jan _2 15:04:05 MST 2006", "Mon Jan _2 15:04:05 -0700 2006",
}

// ParseMmfsLog reads mmfs.log lines. A line starting like an ISO timestamp
// ("2025-09-12_15:01:03.590+0200: ") that does not parse is an error; lines
// without a timestamp are kept as untimed entries.
func ParseMmfsLog(data []byte) (*Log, error) {
	const tool = "mmfs.log"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	l := &Log{Entries: []LogEntry{}, Starts: []int{}}
	openRunmmfs := false
	// A log only grows: a stretch of timestamped lines seen before, met
	// again with other lines between and no later time, is the log read
	// twice. One line alone repeating is not enough: a daemon may well log
	// the same message twice in one second (older stamps have no
	// milliseconds), so the lines after it must repeat too.
	seen := map[string]int{}
	var latest time.Time
	lines := text.Lines(data)
	for i, raw := range lines {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		if text.Terminal(raw) {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
				Reason: "a login banner or shell prompt, not a log line: paste the log only"}
		}
		e := LogEntry{Line: i + 1, Message: strings.TrimSpace(raw)}
		switch {
		case isoStamp.MatchString(raw):
			stamp, msg, ok := strings.Cut(raw, ": ")
			t, err := time.Parse("2006-01-02_15:04:05.000-0700", stamp)
			if !ok || err != nil {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad timestamp"}
			}
			e.Time, e.Message = &t, strings.TrimSpace(msg)
		case oldStamp.MatchString(raw):
			m := oldStamp.FindString(raw)
			stamp := strings.TrimSuffix(m, ": ")
			for _, layout := range oldLayouts {
				if t, err := time.Parse(layout, stamp); err == nil {
					e.Time = &t
					break
				}
			}
			if e.Time == nil {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad timestamp"}
			}
			e.Message = strings.TrimSpace(raw[len(m):])
		}
		if e.Time != nil {
			// The same stamped line again, not later than the latest time
			// read, not right after itself, and followed by the lines that
			// followed it: a stretch read twice.
			if first, dup := seen[raw]; dup && !e.Time.After(latest) && first < i && stretchRepeats(lines, first, i) {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw,
					Reason: fmt.Sprintf("lines %d on again, after other lines: the log read twice?", first+1)}
			}
			seen[raw] = i
			if e.Time.After(latest) {
				latest = *e.Time
			}
		}
		if m := severityRe.FindStringSubmatch(e.Message); m != nil {
			e.Severity = m[1]
			e.Message = e.Message[len(m[0]):]
		}
		classify(&e)
		switch e.Event {
		case EventDaemonStart:
			if strings.Contains(e.Message, "runmmfs starting") {
				l.Starts = append(l.Starts, len(l.Entries))
				openRunmmfs = true
			} else if openRunmmfs {
				openRunmmfs = false
			} else {
				l.Starts = append(l.Starts, len(l.Entries))
			}
		case EventDaemonReady, EventDaemonShutdown:
			openRunmmfs = false
		}
		l.Entries = append(l.Entries, e)
	}
	if len(l.Entries) == 0 {
		l.Empty = true
		return l, nil
	}
	for _, e := range l.Entries {
		if e.Time != nil || e.Event != "" {
			return l, nil
		}
	}
	return nil, &parse.Error{Tool: tool, Line: l.Entries[0].Line, Text: l.Entries[0].Message,
		Reason: "no line has an mmfs.log timestamp or a GPFS message prova knows: not an mmfs.log"}
}

// SinceLastStart returns the entries from the last daemon start on, or all
// entries when the stretch shows no start.
func (l *Log) SinceLastStart() []LogEntry {
	if len(l.Starts) == 0 {
		return l.Entries
	}
	return l.Entries[l.Starts[len(l.Starts)-1]:]
}

// HasStart reports whether the stretch contains a daemon start marker; when
// it does not, SinceLastStart cannot prove the entries belong to the current
// daemon run.
func (l *Log) HasStart() bool { return len(l.Starts) > 0 }

func classify(e *LogEntry) {
	msg := e.Message
	switch {
	case strings.Contains(msg, "runmmfs starting"), strings.Contains(msg, "mmfsd initializing"):
		e.Event = EventDaemonStart
	case strings.HasPrefix(msg, "mmfsd ready"):
		e.Event = EventDaemonReady
	case strings.Contains(msg, "mmfsd is shutting down"), strings.Contains(msg, "Shutting down abnormally"),
		strings.HasPrefix(msg, "Reason for shutdown"):
		e.Event = EventDaemonShutdown
	case strings.Contains(msg, "VERBS RDMA"):
		classifyVerbs(e)
	default:
		if m := tcpPeer.FindStringSubmatch(msg); m != nil {
			// Older releases end the name with a full stop before more
			// text: "Close connection to 192.168.10.109 c5n109. Attempting
			// reconnect." (no "<c0n7>" tag, no severity).
			e.Peer = &LogPeer{IP: m[2], Name: strings.TrimSuffix(m[3], "."), Conn: m[4]}
			switch m[1] {
			case "Connecting to":
				e.Event = EventTCPConnecting
			case "Close connection to":
				e.Event = EventTCPClosed
			default:
				e.Event = EventTCPConnected
			}
		}
	}
}

func classifyVerbs(e *LogEntry) {
	msg := e.Message
	rest := msg[strings.Index(msg, "VERBS RDMA")+len("VERBS RDMA"):]
	rest = strings.TrimPrefix(strings.TrimPrefix(rest, ":"), " ")
	switch {
	case pagepoolNotRegistered(rest):
		e.Event = EventVerbsPagepoolNotRegistered
	case strings.HasPrefix(strings.ToLower(rest), "shutdown"):
		e.Event = EventVerbsShutdown
	case strings.HasPrefix(rest, "starting"):
		e.Event = EventVerbsStarting
	case strings.HasPrefix(rest, "started"):
		e.Event = EventVerbsStarted
	case strings.HasPrefix(rest, "connecting to"):
		e.Event = EventVerbsConnecting
	case strings.HasPrefix(rest, "connected to"):
		e.Event = EventVerbsConnected
	case strings.HasPrefix(rest, "closed connection to"):
		e.Event = EventVerbsClosed
	case strings.Contains(rest, "disconnect"):
		e.Event = EventVerbsDisconnected
	case libraryMissing(rest):
		e.Event = EventVerbsLibraryNotFound
		if m := verbsLib.FindStringSubmatch(msg); m != nil {
			e.Library = m[1]
		}
	case e.Severity == "E":
		e.Event = EventVerbsError
	default:
		e.Event = EventVerbsOther
	}
	if m := verbsPeer.FindStringSubmatch(rest); m != nil {
		p := &LogPeer{IP: m[1], Name: m[2], Device: m[3], Port: optInt(m[4])}
		for _, n := range verbsNum.FindAllStringSubmatch(rest, -1) {
			v := optInt(n[2])
			switch n[1] {
			case "fabnum":
				p.Fabnum = v
			case "index":
				p.Index = v
			case "cookie":
				p.Cookie = v
			case "error":
				p.Error = v
			}
		}
		e.Peer = p
	}
}

// libraryMissing reports a VERBS line saying the RDMA library could not be
// loaded. "not found" alone is not enough: a verbsPorts device or port that
// does not exist is reported with those words too.
func libraryMissing(rest string) bool {
	lib := strings.Contains(rest, "library") || strings.Contains(rest, ".so")
	return lib && (strings.Contains(rest, "not found") || strings.Contains(rest, "could not load"))
}

// pagepoolNotRegistered reports the two messages IBM documents for a
// pagepool the HCA cannot register (too large for its memory translation
// table): "Shutdown because pagepool could not be registered to
// Infiniband." and "Try increasing Infiniband device MTTs or reducing
// pagepool size."
func pagepoolNotRegistered(rest string) bool {
	r := strings.ToLower(rest)
	return strings.Contains(r, "pagepool") &&
		(strings.Contains(r, "could not be registered") || strings.Contains(r, "mtts"))
}

// stretchRepeats reports whether the lines after lines[again] repeat the
// ones after lines[first] (up to two of them, fewer where the text ends):
// a stretch of the log read a second time, not one message logged twice.
func stretchRepeats(lines []string, first, again int) bool {
	for k := 1; k <= 2 && again+k < len(lines); k++ {
		if first+k >= again || lines[first+k] != lines[again+k] {
			return false
		}
	}
	return true
}
