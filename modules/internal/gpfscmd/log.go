package gpfscmd

import (
	"context"
	"errors"

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

// LogHeadLines and LogTailLines bound what is read of one daemon run's log:
// a run of up to LogHeadLines+LogTailLines lines is read whole; a longer one
// (weeks of reconnects) as its first LogHeadLines lines from the start and
// its last LogTailLines, with a line saying which lines were not read. A
// daemon start logs about nine lines per peer with two RDMA ports (TCP
// connect, connected and accepted, and per port VERBS connecting and
// connected), so the start of a cluster of up to about 2,000 nodes is in
// the head.
const (
	LogHeadLines = 20000
	LogTailLines = 5000
)

// logSkipMarker begins the lines LogCommand prints where it left lines out;
// no GPFS log line begins so.
const logSkipMarker = "# prova: lines "

// logProgram reads a log from the last daemon start on (mirroring
// parse/gpfs: "runmmfs starting", or "mmfsd initializing" that no runmmfs
// line opened), keeping the first h lines of that run and the last t in a
// ring, so that the host holds at most h+t lines whatever the file's size.
// POSIX awk (mawk, gawk, busybox).
const logProgram = `{ if (index($0, "runmmfs starting")) { s = NR; n = 0; o = 1 }` +
	` else if (index($0, "mmfsd initializing")) { if (o) o = 0; else { s = NR; n = 0 } }` +
	` else if (index($0, "mmfsd ready") || index($0, "mmfsd is shutting down") || index($0, "Shutting down abnormally") || index($0, "Reason for shutdown")) o = 0;` +
	` if (n < h) b[++n] = $0; else r[NR % t] = $0 }` +
	` END { if (s == 0) s = 1;` +
	` if (s > 1) printf "# prova: lines 1-%d of %d not read: before the last daemon start\n", s - 1, NR;` +
	` for (i = 1; i <= n; i++) print b[i];` +
	` f = s + n; lo = NR - t + 1; if (lo < f) lo = f;` +
	` if (lo > f) printf "# prova: lines %d-%d of %d not read: the middle of this daemon run\n", f, lo - 1, NR;` +
	` for (i = lo; i <= NR; i++) print r[i % t] }`

// LogCommand is the read-only command that reads the current daemon run's
// log from its start, bounded (LogHeadLines, LogTailLines). A path that is
// not absolute is read as ./path, so that awk never takes it for an option
// or a variable assignment.
func LogCommand(path string) string { return logCommand(path, LogHeadLines, LogTailLines) }

func logCommand(path string, head, tail int) string {
	if !strings.HasPrefix(path, "/") {
		path = "./" + path
	}
	return module.Command("awk", "-v", "h="+strconv.Itoa(head), "-v", "t="+strconv.Itoa(tail), "--", logProgram, path)
}

// ReadLog reads the GPFS log at path from the daemon's last start and
// summarises it while it parses (the entries are not kept). raw is the text
// read, the evidence. A log that does not exist is not an error: exists is
// false and the summary is empty.
func ReadLog(ctx context.Context, h module.Host, path string) (s LogSummary, raw string, exists bool, err error) {
	out, err := Probe(ctx, h, LogCommand(path))
	if err != nil {
		return LogSummary{}, "", false, err
	}
	if out.RC != 0 {
		if strings.Contains(out.Stderr, "No such file") {
			return newSummarizer().done(), "", false, nil
		}
		return LogSummary{}, out.Stdout, false, Failure(h, "awk "+path, out)
	}
	s, err = SummarizeLog(out.Stdout)
	if err != nil {
		return LogSummary{}, out.Stdout, true, ParseFailure(h, err)
	}
	return s, out.Stdout, true, nil
}

// SummarizeLog parses text LogCommand printed (or a plain mmfs.log) and
// summarises it. A line where LogCommand left lines out of the middle of
// the run sets Skipped; the parse errors name the line of text.
func SummarizeLog(text string) (LogSummary, error) {
	z := newSummarizer()
	line := 0 // lines of text before the section
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
			if strings.HasSuffix(marker, ": the middle of this daemon run") {
				z.gap(strings.TrimPrefix(marker, "# prova: "))
			}
		}
		text = rest
	}
	return z.done(), nil
}

// cutAtMarker splits text at its first marker line: the text before it,
// the marker (without its line end) and the text after.
func cutAtMarker(text string) (before, marker, after string) {
	at := -1
	if strings.HasPrefix(text, logSkipMarker) {
		at = 0
	} else if i := strings.Index(text, "\n"+logSkipMarker); i >= 0 {
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
	Lines                 int      // entries since the start (read)
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
