package record

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/provadev/prova/engine/event"
)

// writeRunFile replaces run.json with the record as it stands, encoded
// straight into the temporary file (writeRunJSON) rather than into memory
// first. An encoding error is the record's error too (w.fail), as a write
// error is.
func (w *Writer) writeRunFile() error {
	rec := w.rec
	if rec.Steps == nil {
		rec.Steps = []Step{}
	}
	if rec.Assertions == nil {
		rec.Assertions = []Assertion{}
	}
	if rec.Tallies == nil {
		rec.Tallies = map[string]event.Tally{}
	}
	var encErr error
	err := writeFileWith(w.dir, runFile, true, func(out io.Writer) error {
		// No indentation: at 1,000 nodes it was a third of run.json (jq .
		// run.json prints it indented). The bytes are encoding/json's
		// (appendRunJSON says how and why not through it).
		if err := writeRunJSON(out, &rec, w.held); err != nil {
			if !errors.As(err, new(fileError)) {
				// Results come from JSON, so this should not happen; keep the error.
				encErr = fmt.Errorf("encode %s: %w", runFile, err)
				return encErr
			}
			return err
		}
		return nil
	})
	if encErr != nil {
		w.fail(encErr)
	}
	return err
}

// writeFile writes dir/name through a temporary file renamed over it,
// syncing it first when sync is set (run.json; raw blobs are not synced
// one by one: a killed process loses nothing written, and the events
// naming a blob come after it).
func writeFile(dir, name string, data []byte, sync bool) error {
	if data == nil {
		return fmt.Errorf("write %s: nothing to write", name)
	}
	return writeFileWith(dir, name, sync, func(out io.Writer) error {
		_, err := out.Write(data)
		return err
	})
}

// writeFileWith is writeFile with the content written by encode, through
// a buffer, into the temporary file: nothing is renamed over dir/name
// unless encode, the writes, the flush and (with sync) the fsync all
// succeeded.
func writeFileWith(dir, name string, sync bool, encode func(io.Writer) error) error {
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	bw := bufio.NewWriterSize(markedWriter{f}, 64<<10)
	err = encode(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// markedWriter marks its file's write errors as fileError, so that the
// encoder's own errors can be told from the disk's.
type markedWriter struct{ f *os.File }

func (m markedWriter) Write(p []byte) (int, error) {
	n, err := m.f.Write(p)
	if err != nil {
		err = fileError{err}
	}
	return n, err
}

// fileError is an error writing the file, unchanged in its text.
type fileError struct{ err error }

func (e fileError) Error() string { return e.err.Error() }
func (e fileError) Unwrap() error { return e.err }
