package gpfs

import (
	"fmt"
	"hash/maphash"
	"strings"
	"time"

	"github.com/provadev/prova/internal/lazyre"
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
	oldStamp = lazyre.New(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [A-Z+\-0-9]+)? \d{4}: `)
	verbsLib = lazyre.New(`VERBS RDMA(?: library)?:? (\S+) not found`)
	tcpPeer  = lazyre.New(`^(Connecting to|Connected to|Accepted and connected to|Close connection to) (\S+) (\S+)(?: <([a-z0-9]+)>)?`)
)

var oldLayouts = []string{
	"Mon Jan _2 15:04:05.000000 2006", "Mon Jan _2 15:04:05.000 2006", "Mon Jan _2 15:04:05 2006",
	"Mon Jan _2 15:04:05 MST 2006", "Mon Jan _2 15:04:05 -0700 2006",
}

// ParseMmfsLog reads mmfs.log lines. A line starting like an ISO timestamp
// ("2025-09-12_15:01:03.590+0200: ") that does not parse is an error; lines
// without a timestamp are kept as untimed entries.
func ParseMmfsLog(data []byte) (*Log, error) {
	l := &Log{Entries: []LogEntry{}, Starts: []int{}}
	err := scanMmfsLog(string(data), func(e *LogEntry, start bool) {
		if start {
			l.Starts = append(l.Starts, len(l.Entries))
		}
		l.Entries = append(l.Entries, *e)
	})
	if err != nil {
		return nil, err
	}
	l.Empty = len(l.Entries) == 0
	return l, nil
}

// ScanMmfsLog reads mmfs.log text as ParseMmfsLog does, with the same
// errors, and hands each entry to fn in order instead of keeping them:
// start is true for an entry where a daemon run begins (an index
// ParseMmfsLog puts in Log.Starts). e is fn's only while fn runs; its
// strings are substrings of data (nothing is copied), so a caller that
// keeps one past data's life clones it. Reading a long log this way holds
// no more than the text itself and a few words per line.
func ScanMmfsLog(data string, fn func(e *LogEntry, start bool)) error {
	return scanMmfsLog(data, fn)
}

func scanMmfsLog(data string, fn func(e *LogEntry, start bool)) error {
	const tool = "mmfs.log"
	if len(data) > 0 && data[len(data)-1] != '\n' { // cut short? the error names the line
		if err := parse.Complete(tool, []byte(data)); err != nil {
			return err
		}
	}
	lines := splitLines(data)
	openRunmmfs := false
	// A log only grows: a stretch of timestamped lines seen before, met
	// again with other lines between and no later time, is the log read
	// twice. One line alone repeating is not enough: a daemon may well log
	// the same message twice in one second (older stamps have no
	// milliseconds), so the lines after it must repeat too. The lines are
	// remembered by a hash of their text (the index says which one; equal
	// text is checked), not by a copy.
	seen := make(map[uint64]int, len(lines))
	seed := maphash.MakeSeed()
	var latest time.Time
	entries, known := 0, false
	var first LogEntry
	for i, raw := range lines {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		if text.Terminal(raw) {
			return &parse.Error{Tool: tool, Line: i + 1, Text: raw,
				Reason: "a login banner or shell prompt, not a log line: paste the log only"}
		}
		e := LogEntry{Line: i + 1, Message: strings.TrimSpace(raw)}
		switch {
		case isISOStamp(raw):
			stamp, msg, ok := strings.Cut(raw, ": ")
			t, err := time.Parse("2006-01-02_15:04:05.000-0700", stamp)
			if !ok || err != nil {
				return &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad timestamp"}
			}
			e.Time, e.Message = &t, strings.TrimSpace(msg)
		case mayBeOldStamp(raw) && oldStamp.MatchString(raw):
			m := oldStamp.FindString(raw)
			stamp := strings.TrimSuffix(m, ": ")
			for _, layout := range oldLayouts {
				if t, err := time.Parse(layout, stamp); err == nil {
					e.Time = &t
					break
				}
			}
			if e.Time == nil {
				return &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad timestamp"}
			}
			e.Message = strings.TrimSpace(raw[len(m):])
		}
		if e.Time != nil {
			// The same stamped line again, not later than the latest time
			// read, not right after itself, and followed by the lines that
			// followed it: a stretch read twice.
			h := maphash.String(seed, raw)
			if first, dup := seen[h]; dup && lines[first] == raw && !e.Time.After(latest) && first < i && stretchRepeats(lines, first, i) {
				return &parse.Error{Tool: tool, Line: i + 1, Text: raw,
					Reason: fmt.Sprintf("lines %d on again, after other lines: the log read twice?", first+1)}
			}
			seen[h] = i
			if e.Time.After(latest) {
				latest = *e.Time
			}
		}
		if sev, ok := severityTag(e.Message); ok {
			e.Severity = sev
			e.Message = e.Message[4:]
		}
		classify(&e)
		start := false
		switch e.Event {
		case EventDaemonStart:
			if strings.Contains(e.Message, "runmmfs starting") {
				start, openRunmmfs = true, true
			} else if openRunmmfs {
				openRunmmfs = false
			} else {
				start = true
			}
		case EventDaemonReady, EventDaemonShutdown:
			openRunmmfs = false
		}
		if entries == 0 {
			first = e
		}
		entries++
		known = known || e.Time != nil || e.Event != ""
		fn(&e, start)
	}
	if entries == 0 || known {
		return nil
	}
	return &parse.Error{Tool: tool, Line: first.Line, Text: first.Message,
		Reason: "no line has an mmfs.log timestamp or a GPFS message prova knows: not an mmfs.log"}
}

// splitLines is text.Lines without copying: the lines are substrings of
// data, "\r\n" read as "\n".
func splitLines(data string) []string {
	if data == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(data, "\n")+1)
	for {
		line, rest, more := strings.Cut(data, "\n")
		if more {
			line = strings.TrimSuffix(line, "\r")
		}
		lines = append(lines, line)
		if !more || rest == "" {
			return lines
		}
		data = rest
	}
}

// isISOStamp is isoStamp's test (`^\d{4}-\d\d-\d\d_`) without a regexp:
// it runs on every line.
func isISOStamp(s string) bool {
	if len(s) < 11 || s[4] != '-' || s[7] != '-' || s[10] != '_' {
		return false
	}
	for _, k := range [...]int{0, 1, 2, 3, 5, 6, 8, 9} {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return true
}

// mayBeOldStamp: the line starts with a weekday and a space, the only lines
// oldStamp can match (the regexp runs on those alone).
func mayBeOldStamp(s string) bool {
	if len(s) < 4 || s[3] != ' ' {
		return false
	}
	switch s[:3] {
	case "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun":
		return true
	}
	return false
}

// severityTag reads a leading "[X] " (X an upper-case letter).
func severityTag(msg string) (string, bool) {
	if len(msg) < 4 || msg[0] != '[' || msg[1] < 'A' || msg[1] > 'Z' || msg[2] != ']' || msg[3] != ' ' {
		return "", false
	}
	return msg[1:2], true
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
	case strings.HasPrefix(msg, "Connecting to "), strings.HasPrefix(msg, "Connected to "),
		strings.HasPrefix(msg, "Accepted and connected to "), strings.HasPrefix(msg, "Close connection to "):
		// The regexp runs only on the lines that start as it does.
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
	if ip, name, dev, port, ok := matchVerbsPeer(rest); ok {
		p := &LogPeer{IP: ip, Name: name, Device: dev, Port: optInt(port)}
		eachVerbsNum(rest, func(key, num string) {
			v := optInt(num)
			switch key {
			case "fabnum":
				p.Fabnum = v
			case "index":
				p.Index = v
			case "cookie":
				p.Cookie = v
			case "error":
				p.Error = v
			}
		})
		e.Peer = p
	}
}

// matchVerbsPeer is the regexp
//
//	(?:to|from) (\S+) \(([^)]*)\)(?: on (\S+) port (\d+))?
//
// (its leftmost match and submatches) written out: it runs on every VERBS
// RDMA line of a 1,000-node daemon start, where the regexp and its
// submatch slices were most of the log's parse time. The differential and
// fuzz tests hold it to the regexp.
func matchVerbsPeer(s string) (ip, name, dev, port string, ok bool) {
	for i := 0; i < len(s); i++ {
		j := 0
		switch {
		case strings.HasPrefix(s[i:], "to "):
			j = i + 3
		case strings.HasPrefix(s[i:], "from "):
			j = i + 5
		default:
			continue
		}
		k := nonSpace(s, j)
		if k == j || !strings.HasPrefix(s[k:], " (") {
			continue
		}
		closing := strings.IndexByte(s[k+2:], ')')
		if closing < 0 {
			continue
		}
		ip, name = s[j:k], s[k+2:k+2+closing]
		rest := s[k+2+closing+1:]
		if strings.HasPrefix(rest, " on ") {
			d := nonSpace(rest, 4)
			if d > 4 && strings.HasPrefix(rest[d:], " port ") {
				n := digits(rest, d+6)
				if n > d+6 {
					dev, port = rest[4:d], rest[d+6:n]
				}
			}
		}
		return ip, name, dev, port, true
	}
	return "", "", "", "", false
}

// eachVerbsNum calls fn for each match of `\b(fabnum|index|cookie|error)
// (-?\d+)\b` in s, in order (written out, as matchVerbsPeer).
func eachVerbsNum(s string, fn func(key, num string)) {
	for i := 0; i < len(s); {
		if i > 0 && isWord(s[i-1]) {
			i++
			continue
		}
		matched := false
		for _, key := range [...]string{"fabnum", "index", "cookie", "error"} {
			if !strings.HasPrefix(s[i:], key) || !strings.HasPrefix(s[i+len(key):], " ") {
				continue
			}
			d := i + len(key) + 1
			if d < len(s) && s[d] == '-' {
				d++
			}
			end := digits(s, d)
			if end == d || (end < len(s) && isWord(s[end])) {
				break
			}
			fn(key, s[i+len(key)+1:end])
			i, matched = end, true
			break
		}
		if !matched {
			i++
		}
	}
}

// nonSpace returns the end of the run of non-space bytes (RE2's \S:
// not one of \t \n \f \r and space) at s[from:].
func nonSpace(s string, from int) int {
	for from < len(s) {
		switch s[from] {
		case '\t', '\n', '\f', '\r', ' ':
			return from
		}
		from++
	}
	return from
}

// digits returns the end of the run of ASCII digits at s[from:].
func digits(s string, from int) int {
	for from < len(s) && s[from] >= '0' && s[from] <= '9' {
		from++
	}
	return from
}

func isWord(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
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
