package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/provadev/prova/engine/event"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// safeName turns a step, host or output name into one file name element:
// letters, digits, '.', '_' and '-' only, no "..", never starting with a
// dot.
func safeName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	n := b.String()
	for _, rep := range [][2]string{{"..", "."}, {"__", "_"}} {
		for strings.Contains(n, rep[0]) {
			n = strings.ReplaceAll(n, rep[0], rep[1])
		}
	}
	if n == "" || n[0] == '.' {
		n = "_" + n
	}
	if len(n) > maxNameLen {
		// Long names (whole command lines as evidence keys) keep their
		// start and a hash of the rest, so files stay distinct and short.
		sum := sha256.Sum256([]byte(s))
		n = strings.TrimRight(n[:maxNameLen-9], "_.-") + "-" + hex.EncodeToString(sum[:4])
	}
	return n
}

// maxNameLen bounds a raw file's name part.
const maxNameLen = 48

// writeRaw stores one raw output, redacted, as raw/<step>/<host>.<name>.txt
// and returns its path relative to the record directory.
func (w *Writer) writeRaw(step, host, name, content string) string {
	r := w.red
	base := safeName(r.String(host)) + "." + safeName(r.String(name))
	rel := path.Join(rawDir, safeName(r.String(step)), base+".txt")
	for i := 2; w.rawUsed[rel]; i++ {
		rel = path.Join(rawDir, safeName(r.String(step)), base+"-"+strconv.Itoa(i)+".txt")
	}
	w.rawUsed[rel] = true
	full := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
		return rel
	}
	if err := os.WriteFile(full, []byte(r.String(content)), 0o600); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
	}
	return rel
}

// snapshot encodes the record as it stands.
func (w *Writer) snapshot() []byte {
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
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rec); err != nil {
		// Results come from JSON, so this should not happen; keep the error.
		w.fail(fmt.Errorf("encode %s: %w", runFile, err))
		return nil
	}
	return b.Bytes()
}

// writeAtomic replaces dir/name with data through a temporary file, so a
// reader never sees a half-written file.
func writeAtomic(dir, name string, data []byte) error {
	if data == nil {
		return fmt.Errorf("write %s: nothing to write", name)
	}
	f, err := os.CreateTemp(dir, "."+name+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
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
