package module

import (
	"context"
	"io"
	"io/fs"
)

// Host is one target machine as a module sees it. Transports (SSH, local,
// fakes in tests) satisfy it; the engine wraps it for become and recording.
//
// Run executes cmd through the remote user's shell, wiring stdin, stdout and
// stderr, and returns the exit status. err is non-nil only when the command
// could not be run or its status is unknown (connection lost, cancelled);
// a command that ran and failed returns its status and a nil error. Run
// is done with stdout and stderr when it returns: it writes nothing to
// them afterwards (callers reuse them).
type Host interface {
	Name() string
	Run(ctx context.Context, cmd string, stdin io.Reader, stdout, stderr io.Writer) (int, error)
	// Put writes r to path with mode, creating or replacing the file.
	Put(ctx context.Context, path string, r io.Reader, mode fs.FileMode) error
	// Get copies the file at path into w.
	Get(ctx context.Context, path string, w io.Writer) error
}
