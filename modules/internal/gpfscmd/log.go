package gpfscmd

import (
	"context"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/parse/gpfs"
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
