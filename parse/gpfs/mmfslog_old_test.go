package gpfs

// The mmfs.log parser as it was before its inner loop was rewritten to
// stream (no copy of the text, no retained entries, regexps only on lines
// that can match): kept here, unchanged, as the reference the differential
// test compares the new one with.

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

var (
	old_isoStamp   = regexp.MustCompile(`^\d{4}-\d\d-\d\d_`)
	old_oldStamp   = regexp.MustCompile(`^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [A-Z+\-0-9]+)? \d{4}: `)
	old_severityRe = regexp.MustCompile(`^\[([A-Z])\] `)
	old_verbsPeer  = regexp.MustCompile(`(?:to|from) (\S+) \(([^)]*)\)(?: on (\S+) port (\d+))?`)
	old_verbsNum   = regexp.MustCompile(`\b(fabnum|index|cookie|error) (-?\d+)\b`)
	old_verbsLib   = regexp.MustCompile(`VERBS RDMA(?: library)?:? (\S+) not found`)
	old_tcpPeer    = regexp.MustCompile(`^(Connecting to|Connected to|Accepted and connected to|Close connection to) (\S+) (\S+)(?: <([a-z0-9]+)>)?`)
)

func oldParseMmfsLog(data []byte) (*Log, error) {
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
		case old_isoStamp.MatchString(raw):
			stamp, msg, ok := strings.Cut(raw, ": ")
			t, err := time.Parse("2006-01-02_15:04:05.000-0700", stamp)
			if !ok || err != nil {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad timestamp"}
			}
			e.Time, e.Message = &t, strings.TrimSpace(msg)
		case old_oldStamp.MatchString(raw):
			m := old_oldStamp.FindString(raw)
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
		if m := old_severityRe.FindStringSubmatch(e.Message); m != nil {
			e.Severity = m[1]
			e.Message = e.Message[len(m[0]):]
		}
		oldClassify(&e)
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

func oldClassify(e *LogEntry) {
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
		oldClassifyVerbs(e)
	default:
		if m := old_tcpPeer.FindStringSubmatch(msg); m != nil {
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

func oldClassifyVerbs(e *LogEntry) {
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
		if m := old_verbsLib.FindStringSubmatch(msg); m != nil {
			e.Library = m[1]
		}
	case e.Severity == "E":
		e.Event = EventVerbsError
	default:
		e.Event = EventVerbsOther
	}
	if m := old_verbsPeer.FindStringSubmatch(rest); m != nil {
		p := &LogPeer{IP: m[1], Name: m[2], Device: m[3], Port: optInt(m[4])}
		for _, n := range old_verbsNum.FindAllStringSubmatch(rest, -1) {
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
