package record

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/provadev/prova/engine/event"
)

// snapshot encodes the record as it stands.
func (w *Writer) snapshot() []byte {
	b, err := w.encode()
	if err != nil {
		w.fail(err)
	}
	return b
}

// encode encodes the record as it stands.
func (b *builder) encode() ([]byte, error) {
	rec := b.rec
	if rec.Steps == nil {
		rec.Steps = []Step{}
	}
	if rec.Assertions == nil {
		rec.Assertions = []Assertion{}
	}
	if rec.Tallies == nil {
		rec.Tallies = map[string]event.Tally{}
	}
	// No indentation: at 1,000 nodes it was a third of run.json (jq .
	// run.json prints it indented). The bytes are encoding/json's
	// (appendRunJSON says how and why not through it).
	out, err := appendRunJSON(nil, &rec)
	if err != nil {
		// Results come from JSON, so this should not happen; keep the error.
		return nil, fmt.Errorf("encode %s: %w", runFile, err)
	}
	return out, nil
}

// writeAtomic replaces dir/name with data through a temporary file, so a
// reader never sees a half-written file.
func writeAtomic(dir, name string, data []byte) error { return writeFile(dir, name, data, true) }

// writeFile writes dir/name through a temporary file renamed over it,
// syncing it first when sync is set (run.json; raw blobs are not synced
// one by one: a killed process loses nothing written, and the events
// naming a blob come after it).
func writeFile(dir, name string, data []byte, sync bool) error {
	if data == nil {
		return fmt.Errorf("write %s: nothing to write", name)
	}
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
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
