package gpfscmd

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/gpfs"
)

// DefaultLogPath is the GPFS log of the current daemon run. GPFS opens a
// new log file, mmfs.log.DATE.NODE, each time the daemon starts on a node
// and points the symbolic link mmfs.log.latest at it (mmfs.log.previous at
// the one before): IBM Storage Scale 5.2.3, "GPFS logs"; a real listing of
// /var/adm/ras is in testdata/samples/gpfs/ls-latr-var-adm-ras-mmfs-log-links-4.x.txt.
// So the file begins with the run's start.
const DefaultLogPath = "/var/adm/ras/mmfs.log.latest"

// LogHeadBytes and LogTailBytes bound what is read of one daemon run's
// log. Of the run (from its start to the end of the file) only the lines
// the summary reads are sent: the start, the VERBS RDMA lines, the error
// ([E]) lines and the daemon's ready and shutdown lines; a daemon start logs
// about four VERBS lines per peer with two RDMA ports (connecting and
// connected per port), some 540 bytes, so the start of a cluster of about
// 3,800 nodes fits in the head. A longer run (weeks of reconnects) is read
// as its first LogHeadBytes and its last LogTailBytes, with a line saying
// which lines were not read. Lengths are awk's (characters: bytes for the
// ASCII GPFS writes), and logCaptureLimit leaves room for the lines prova
// adds.
const (
	LogHeadBytes = 2 << 20
	LogTailBytes = 512 << 10
	// logTailLines bounds the ring of the last lines the host keeps while
	// it reads.
	logTailLines    = 8000
	logCaptureLimit = LogHeadBytes + LogTailBytes + 64<<10
)

// logMarker begins the lines LogCommand prints about what it read; no GPFS
// log line begins so.
const logMarker = "# prova: "

// logProgram reads a log from the last daemon start on (mirroring
// parse/gpfs: "runmmfs starting", or "mmfsd initializing" that no runmmfs
// line opened; without a start, from the first line), keeping the lines
// the summary reads: the run's first line, the start, ready and shutdown
// lines, VERBS RDMA and [E] lines. Up to h bytes of them from the start,
// and the last lines up to t bytes (from a ring of at most n lines), so
// the host holds a bounded amount whatever the file's size. Then a line
// with the counts. POSIX awk (mawk, gawk, busybox).
const logProgram = `{ k = 0; st = 0;` +
	` if (index($0, "runmmfs starting")) { st = 1; o = 1 }` +
	` else if (index($0, "mmfsd initializing")) { k = 1; if (o) o = 0; else st = 1 }` +
	` else if (index($0, "mmfsd ready") || index($0, "mmfsd is shutting down") || index($0, "Shutting down abnormally") || index($0, "Reason for shutdown")) { k = 1; o = 0 };` +
	` if (st) { s = NR; c = 0; m = 0; hb = 0; full = 0 };` +
	` if (s == 0) s = 1;` +
	` if (!(st || k || NR == s || index($0, "VERBS RDMA") || index($0, "[E] "))) next;` +
	` L = length($0) + 1;` +
	` if (!full && hb + L <= h) { b[++c] = $0; hb += L; hl = NR } else { full = 1; m++; r[m % n] = $0; rn[m % n] = NR } }` +
	` END { if (NR == 0) exit;` +
	` if (s > 1) printf "# prova: lines 1-%d of %d not read: before the last daemon start\n", s - 1, NR;` +
	` for (i = 1; i <= c; i++) print b[i];` +
	` j = m; tb = 0;` +
	` while (j > 0 && j > m - n && tb + length(r[j % n]) + 1 <= t) { tb += length(r[j % n]) + 1; j-- };` +
	` if (j > 0) printf "# prova: lines %d-%d of %d not read: the middle of this daemon run\n", hl + 1, (j < m ? rn[(j + 1) % n] - 1 : NR), NR;` +
	` for (i = j + 1; i <= m; i++) print r[i % n];` +
	` printf "# prova: %d of the %d lines of this daemon run read: its start, VERBS RDMA, [E], ready and shutdown lines\n", c + m - j, NR - s + 1 }`

// LogCommand is the read-only command that reads the current daemon run's
// log from its start, bounded (LogHeadBytes, LogTailBytes). A path that is
// not absolute is read as ./path, so that awk never takes it for an option
// or a variable assignment.
func LogCommand(path string) string {
	return logCommand(path, LogHeadBytes, LogTailBytes, logTailLines)
}

func logCommand(path string, head, tail, lines int) string {
	if !strings.HasPrefix(path, "/") {
		path = "./" + path
	}
	return module.Command("awk", "-v", "h="+strconv.Itoa(head), "-v", "t="+strconv.Itoa(tail), "-v", "n="+strconv.Itoa(lines), "--", logProgram, path)
}

// ReadLog reads the GPFS log at path from the daemon's last start and
// summarises it while it parses (the entries are not kept). raw is the text
// read, the evidence. A log that does not exist is not an error: exists is
// false and the summary is empty.
func ReadLog(ctx context.Context, h module.Host, path string) (s LogSummary, raw string, exists bool, err error) {
	out, err := module.CaptureLimit(ctx, h, LogCommand(path), logCaptureLimit) // more than the engine's default 1 MiB
	if err != nil {
		return LogSummary{}, "", false, err
	}
	if out.RC != 0 {
		if strings.Contains(out.Stderr, "No such file") {
			return newSummarizer().done(), "", false, nil
		}
		return LogSummary{}, out.Stdout, false, Failure(h, "awk "+path, out)
	}
	if strings.HasSuffix(out.Stdout, module.TruncatedLine) { // the bounds are below the limit: not the awk above
		return LogSummary{}, out.Stdout, true, fmt.Errorf("mmfs.log on %s: the read of %s printed more than %d bytes, more than its bounds allow: is awk the POSIX one?", h.Name(), path, logCaptureLimit)
	}
	s, err = SummarizeLog(out.Stdout)
	if err != nil {
		return LogSummary{}, out.Stdout, true, ParseFailure(h, err)
	}
	return s, out.Stdout, true, nil
}

// SummarizeLog parses text LogCommand printed (or a plain mmfs.log) and
// summarises it. The lines LogCommand adds say what it left out: of the
// middle of the run (Skipped), and how many lines the run has (Lines). The
// parse errors name the line of text.
func SummarizeLog(text string) (LogSummary, error) {
	z := newSummarizer()
	line, total := 0, -1 // lines of text before the section; the run's lines
	for text != "" {
		section, marker, rest := cutAtMarker(text)
		err := gpfs.ScanMmfsLog(section, z.add)
		if pe := (*parse.Error)(nil); errors.As(err, &pe) {
			pe.Line += line
		}
		if err != nil {
			return LogSummary{}, err
		}
		line += strings.Count(section, "\n")
		if marker != "" {
			line++
			note := strings.TrimPrefix(marker, logMarker)
			var read, all int
			switch {
			case strings.HasSuffix(note, ": the middle of this daemon run"):
				z.gap(note)
			case strings.HasSuffix(note, ": before the last daemon start"):
			default:
				if n, _ := fmt.Sscanf(note, "%d of the %d lines of this daemon run read:", &read, &all); n != 2 {
					return LogSummary{}, &parse.Error{Tool: "mmfs.log", Line: line, Text: marker, Reason: "a line prova's log read does not print"}
				}
				total = all
			}
		}
		text = rest
	}
	s := z.done()
	if total >= 0 {
		s.Lines = total
	}
	return s, nil
}

// cutAtMarker splits text at its first marker line: the text before it,
// the marker (without its line end) and the text after.
func cutAtMarker(text string) (before, marker, after string) {
	at := -1
	if strings.HasPrefix(text, logMarker) {
		at = 0
	} else if i := strings.Index(text, "\n"+logMarker); i >= 0 {
		at = i + 1
	}
	if at < 0 {
		return text, "", ""
	}
	marker, after, _ = strings.Cut(text[at:], "\n")
	return text[:at], marker, after
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
	// Lines is the number of lines since the start: as the read counted
	// them (it sends only the lines the summary reads), else the entries.
	Lines int
	// Skipped says which lines of the run's middle were not read ("lines
	// 20001-95000 of 100000 not read: the middle of this daemon run"),
	// empty when the run was read whole.
	Skipped string
	// Peers is what the VERBS RDMA lines since the start say per peer
	// (gpfs.VerbsPeers); when lines were skipped, only of the peers with a
	// line after the skip (for the others the latest word may be among the
	// lines not read). PeerLines are the messages of the lines about
	// closed, disconnected or failed RDMA connections, as printed.
	Peers     []gpfs.VerbsPeerLog
	PeerLines []string
}

// The summary keeps what the diagnosis reads, copied out of the text, and
// is built while the text is parsed: on 1,000 nodes each node's log and its
// parse (a few MB) would otherwise live as long as the module call, on
// every host running at once.

// summarizer builds a LogSummary one entry at a time; a daemon start
// starts it over.
type summarizer struct {
	s          LogSummary
	all, since gpfs.VerbsPeerTally // since: after the skip, when there is one
}

func newSummarizer() *summarizer {
	z := &summarizer{}
	z.s = LogSummary{ConnectedTo: []string{}, Closed: []string{}, Errors: []string{}}
	return z
}

func (z *summarizer) add(e *gpfs.LogEntry, start bool) {
	if start {
		*z = *newSummarizer()
		z.s.StartFound = true
	}
	s := &z.s
	s.Lines++
	switch e.Event {
	case gpfs.EventVerbsClosed, gpfs.EventVerbsDisconnected, gpfs.EventVerbsError:
		s.PeerLines = append(s.PeerLines, strings.Clone(e.Message))
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
	z.all.Add(e)
	z.since.Add(e)
}

// gap: the lines after this one follow a stretch not read.
func (z *summarizer) gap(note string) {
	z.s.Skipped = note
	z.since.Reset()
}

func (z *summarizer) done() LogSummary {
	s := z.s
	s.Peers = z.since.Peers()
	for _, p := range z.all.Peers() {
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
