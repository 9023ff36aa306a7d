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

// logs collects the mmfs.log lines a command makes, per node, and writes
// them to the nodes' files at the end. As GPFS does (IBM Storage Scale
// 5.2.3, "GPFS logs"; testdata/samples/gpfs/ls-latr-var-adm-ras-mmfs-log-links-4.x.txt),
// each daemon start opens a new file, mmfs.log.YYYY.MM.DD.hh.mm.ss.NODE,
// and points the symbolic link mmfs.log.latest at it and mmfs.log.previous
// at the one before; other lines are appended to the file mmfs.log.latest
// points at.
type logs struct {
	dir    string
	chunks map[string][]logChunk
	clock  map[string]time.Time // per node: the time of its last line
	paths  []string
}

// logChunk is lines for one file: file is the new run's file name, or
// empty for the file mmfs.log.latest points at.
type logChunk struct {
	file  string
	lines []string
}

func newLogs(dir string) *logs {
	return &logs{dir: dir, chunks: map[string][]logChunk{}, clock: map[string]time.Time{}}
}

// at moves the node's log clock to t (never backwards).
func (l *logs) at(node string, t time.Time) {
	if t.After(l.clock[node]) {
		l.clock[node] = t
	}
}

// newRun starts the node's log file for a daemon run beginning at its
// clock: the lines logged after this go to it.
func (l *logs) newRun(node string) {
	name := "mmfs.log." + l.clock[node].Format("2006.01.02.15.04.05") + "." + node
	l.chunks[node] = append(l.chunks[node], logChunk{file: name})
}

func (l *logs) appendLine(node, line string) {
	c := l.chunks[node]
	if len(c) == 0 {
		c = append(c, logChunk{})
	}
	c[len(c)-1].lines = append(c[len(c)-1].lines, line)
	l.chunks[node] = c
}

// count is how many lines the node logged in this command.
func (l *logs) count(node string) int {
	n := 0
	for _, c := range l.chunks[node] {
		n += len(c.lines)
	}
	return n
}

// add logs a daemon message "[sev] msg" a few milliseconds after the
// node's previous line.
func (l *logs) add(node, sev, format string, args ...any) {
	t := l.clock[node].Add(3*time.Millisecond + time.Duration(l.count(node)%7)*time.Millisecond)
	l.clock[node] = t
	l.appendLine(node, fmt.Sprintf("%s: [%s] %s", t.Format(stampLayout), sev, fmt.Sprintf(format, args...)))
}

// plain logs a line with a timestamp but no severity (runmmfs, mmcommon).
func (l *logs) plain(node, format string, args ...any) {
	t := l.clock[node].Add(time.Millisecond)
	l.clock[node] = t
	l.appendLine(node, t.Format(stampLayout)+": "+fmt.Sprintf(format, args...))
}

// raw logs a line of script output without a timestamp.
func (l *logs) raw(node, line string) { l.appendLine(node, line) }

// flush writes the collected lines to each node's files.
func (l *logs) flush() error {
	names := make([]string, 0, len(l.chunks))
	for n := range l.chunks {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ras := filepath.Join("nodes", n, "root", filepath.Dir(LogPath))
		if err := os.MkdirAll(filepath.Join(l.dir, ras), 0o755); err != nil {
			return fmt.Errorf("gpfs log: %w", err)
		}
		for _, c := range l.chunks[n] {
			file := filepath.Base(LogPath)
			if c.file != "" {
				if err := l.link(ras, c.file); err != nil {
					return err
				}
				file = c.file
			}
			if err := appendLines(filepath.Join(l.dir, ras, file), c.lines); err != nil {
				return err
			}
			l.paths = append(l.paths, filepath.Join(ras, file))
		}
	}
	l.chunks = map[string][]logChunk{}
	return nil
}

// link points mmfs.log.latest at file (created empty) and
// mmfs.log.previous at the file latest pointed at. A latest that is a
// plain file (the empty one a lab node starts with, or a lab made before
// the logs were split per run) becomes previous when it holds lines.
func (l *logs) link(ras, file string) error {
	dir := filepath.Join(l.dir, ras)
	latest, previous := filepath.Join(dir, filepath.Base(LogPath)), filepath.Join(dir, "mmfs.log.previous")
	f, err := os.OpenFile(filepath.Join(dir, file), os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		return fmt.Errorf("gpfs log: %w", err)
	}
	if fi, err := os.Lstat(latest); err == nil {
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			if target, err := os.Readlink(latest); err == nil && target != file {
				if err := replaceLink(target, previous); err != nil {
					return err
				}
			}
		case fi.Size() > 0:
			if err := os.Rename(latest, previous); err != nil {
				return fmt.Errorf("gpfs log: %w", err)
			}
		}
	}
	l.paths = append(l.paths, filepath.Join(ras, "mmfs.log.previous"), filepath.Join(ras, filepath.Base(LogPath)))
	return replaceLink(file, latest)
}

// replaceLink makes path a symbolic link to target, atomically (a reader
// sees the old link or the new one).
func replaceLink(target, path string) error {
	tmp := path + ".new"
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return fmt.Errorf("gpfs log: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("gpfs log: %w", err)
	}
	return nil
}

func appendLines(path string, lines []string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("gpfs log: %w", err)
	}
	var b []byte
	for _, line := range lines {
		b = append(append(b, line...), '\n')
	}
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("gpfs log: %w", err)
	}
	return nil
}

// written lists the log files and links flush wrote, relative to the lab.
func (l *logs) written() []string { return l.paths }
