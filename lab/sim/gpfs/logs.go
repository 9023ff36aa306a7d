package gpfs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// LogPath is the daemon log inside a node's file tree.
const LogPath = "var/adm/ras/mmfs.log.latest"

// stampLayout is the mmfs.log timestamp: 2025-09-12_15:01:03.590+0200.
const stampLayout = "2006-01-02_15:04:05.000-0700"

// logs collects the mmfs.log lines a command makes, per node, and appends
// them to the nodes' files at the end.
type logs struct {
	dir   string
	lines map[string][]string
	clock map[string]time.Time // per node: the time of its last line
	paths []string
}

func newLogs(dir string) *logs {
	return &logs{dir: dir, lines: map[string][]string{}, clock: map[string]time.Time{}}
}

// at moves the node's log clock to t (never backwards).
func (l *logs) at(node string, t time.Time) {
	if t.After(l.clock[node]) {
		l.clock[node] = t
	}
}

// add logs a daemon message "[sev] msg" a few milliseconds after the
// node's previous line.
func (l *logs) add(node, sev, format string, args ...any) {
	t := l.clock[node].Add(3*time.Millisecond + time.Duration(len(l.lines[node])%7)*time.Millisecond)
	l.clock[node] = t
	l.lines[node] = append(l.lines[node], fmt.Sprintf("%s: [%s] %s", t.Format(stampLayout), sev, fmt.Sprintf(format, args...)))
}

// plain logs a line with a timestamp but no severity (runmmfs, mmcommon).
func (l *logs) plain(node, format string, args ...any) {
	t := l.clock[node].Add(time.Millisecond)
	l.clock[node] = t
	l.lines[node] = append(l.lines[node], t.Format(stampLayout)+": "+fmt.Sprintf(format, args...))
}

// raw logs a line of script output without a timestamp.
func (l *logs) raw(node, line string) { l.lines[node] = append(l.lines[node], line) }

// flush appends the collected lines to each node's mmfs.log.latest.
func (l *logs) flush() error {
	names := make([]string, 0, len(l.lines))
	for n := range l.lines {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		rel := filepath.Join("nodes", n, "root", LogPath)
		p := filepath.Join(l.dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("gpfs log: %w", err)
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return fmt.Errorf("gpfs log: %w", err)
		}
		var b []byte
		for _, line := range l.lines[n] {
			b = append(append(b, line...), '\n')
		}
		_, err = f.Write(b)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("gpfs log: %w", err)
		}
		l.paths = append(l.paths, rel)
	}
	l.lines = map[string][]string{}
	return nil
}

// written lists the log files flush appended to, relative to the lab.
func (l *logs) written() []string { return l.paths }
