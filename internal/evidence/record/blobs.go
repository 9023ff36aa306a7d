package record

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// Size caps. They hold for everything the record keeps, whatever a module
// let through: a command printing 200 MB leaves at most MaxRawBytes of it.
const (
	// MaxRawBytes caps one raw output (stdout, stderr, one evidence text).
	MaxRawBytes = 1 << 20
	// MaxValueBytes caps one string inside a step result, and a message.
	MaxValueBytes = 64 << 10
	// MaxRunRawBytes caps the raw outputs of a whole run as stored
	// (compressed, each distinct output once); outputs past it are named
	// in the record but not kept. It counted the bytes before compression
	// until the 1,000-node verify, whose distinct outputs are about 900 MB
	// before compression and under 100 MB after: the cap dropped the
	// evidence of its last few hundred nodes.
	MaxRunRawBytes = 512 << 20
)

// blobDir is where version 2 keeps raw outputs, by SHA-256 of the content.
const blobDir = rawDir + "/sha256"

// cut shortens s to at most max bytes (on a rune boundary) and says so.
func cut(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	keep := max
	for keep > 0 && keep < len(s) && (s[keep]&0xC0) == 0x80 {
		keep--
	}
	return s[:keep] + fmt.Sprintf("\n[prova: cut here: %d bytes in all, the record keeps the first %d]\n", len(s), keep), true
}

// cutValues caps every string inside a result value.
func cutValues(v any) any {
	switch x := v.(type) {
	case string:
		s, _ := cut(x, MaxValueBytes)
		return s
	case map[string]any:
		for k, e := range x {
			x[k] = cutValues(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = cutValues(e)
		}
		return x
	}
	return v
}

// storeRaw keeps one raw output, already redacted: capped, stored once per
// distinct content as raw/sha256/<hex>.gz. It returns the path relative
// to the record directory and whether the output was cut.
func (w *Writer) storeRaw(step, name, content string) (string, bool) {
	content, cutOff := cut(content, MaxRawBytes)
	rel, known := w.blobPath(content)
	if known {
		return rel, cutOff
	}
	b := gzipBytes(content)
	defer b.release()
	if w.rawBytes+int64(b.buf.Len()) > w.maxRunRaw() {
		note := fmt.Sprintf("[prova: not kept: the run's raw outputs reached the record cap of %d MiB; %d bytes dropped]\n",
			w.maxRunRaw()>>20, len(content))
		rel, known = w.blobPath(note)
		if !known {
			nb := gzipBytes(note)
			defer nb.release()
			w.writeBlob(rel, nb.buf.Bytes())
		}
		return rel, true
	}
	w.writeBlob(rel, b.buf.Bytes())
	return rel, cutOff
}

// blobStore is the Writer's blob state, used under its lock.
type blobStore struct {
	written map[string]bool // SHA-256 hex of the blobs written
}

func newBlobStore() *blobStore { return &blobStore{written: map[string]bool{}} }

// maxRunRaw is MaxRunRawBytes, or the test's cap.
func (w *Writer) maxRunRaw() int64 {
	if w.runRawCap > 0 {
		return w.runRawCap
	}
	return MaxRunRawBytes
}

// blobPath is where content is stored, and whether it already is.
func (w *Writer) blobPath(content string) (string, bool) {
	hs := sha256.New()
	_, _ = io.WriteString(hs, content) // no copy of the content; never fails
	hexSum := hex.EncodeToString(hs.Sum(nil))
	return path.Join(blobDir, hexSum+".gz"), w.store.written[hexSum]
}

// writeBlob writes a compressed blob and counts it.
func (w *Writer) writeBlob(rel string, gz []byte) {
	full := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
		return
	}
	if err := writeFile(filepath.Dir(full), filepath.Base(full), gz, false); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
		return
	}
	w.rawBytes += int64(len(gz))
	w.store.written[strings.TrimSuffix(path.Base(rel), ".gz")] = true
}

// blobLevel is the gzip level of raw blobs: level 5 keeps the 1,000-node
// verify's raw outputs 15 % smaller than the fastest level for about a
// fifth more compression time (measured on its blobs, docs/performance.md).
const blobLevel = 5

// gzipped is a compressed blob in a pooled buffer; release returns both
// the buffer and the compressor (a new gzip.Writer allocates about 1 MB).
type gzipped struct {
	buf *bytes.Buffer
	zw  *gzip.Writer
}

var gzipPool = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, blobLevel) // a valid level never fails
	return &gzipped{buf: new(bytes.Buffer), zw: zw}
}}

func gzipBytes(content string) *gzipped {
	g := gzipPool.Get().(*gzipped)
	g.buf.Reset()
	g.zw.Reset(g.buf)
	_, _ = io.WriteString(g.zw, content) // writes to a buffer
	_ = g.zw.Close()
	return g
}

func (g *gzipped) release() {
	if g.buf.Cap() > 4<<20 {
		g.buf = new(bytes.Buffer) // do not keep a huge buffer alive
	}
	gzipPool.Put(g)
}

// compressEvents replaces events.jsonl with events.jsonl.gz, through a
// temporary file renamed into place before the plain file is removed: a
// crash between the two leaves both, and Load prefers the plain one.
func compressEvents(dir string) error {
	src := filepath.Join(dir, eventsFile)
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("compress %s: %w", eventsFile, err)
	}
	defer in.Close()
	f, err := os.CreateTemp(dir, "."+eventsGz+".*")
	if err != nil {
		return fmt.Errorf("compress %s: %w", eventsFile, err)
	}
	tmp := f.Name()
	zw, _ := gzip.NewWriterLevel(f, gzip.DefaultCompression) // a valid level never fails
	_, err = io.Copy(zw, in)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, eventsGz))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("compress %s: %w", eventsFile, err)
	}
	if err := os.Remove(src); err != nil {
		return fmt.Errorf("compress %s: %w", eventsFile, err)
	}
	return nil
}

// openEvents opens a record's trail: events.jsonl, else events.jsonl.gz
// (decompressed). name is the file opened.
func openEvents(dir string) (r io.ReadCloser, name string, err error) {
	f, err := os.Open(filepath.Join(dir, eventsFile))
	if err == nil {
		return f, eventsFile, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return nil, eventsFile, err
	}
	f, gzErr := os.Open(filepath.Join(dir, eventsGz))
	if gzErr != nil {
		return nil, eventsFile, err // say what is missing: the plain trail
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, eventsGz, err
	}
	return readCloser{zr, f}, eventsGz, nil
}

type readCloser struct {
	io.Reader
	f *os.File
}

func (r readCloser) Close() error { return r.f.Close() }

// ReadRaw returns a raw output named by a HostResult.Raw path: a version 2
// blob (raw/sha256/<hex>.gz, decompressed) or a version 1 text file.
// Paths leaving the record directory are refused.
func (r *Record) ReadRaw(rel string) ([]byte, error) {
	p := filepath.FromSlash(rel)
	if !filepath.IsLocal(p) {
		return nil, fmt.Errorf("read raw output %q: path leaves the record", rel)
	}
	f, err := os.Open(filepath.Join(r.Dir, p))
	if err != nil {
		return nil, fmt.Errorf("read raw output: %w", err)
	}
	defer f.Close()
	if !strings.HasSuffix(rel, ".gz") {
		b, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("read raw output %s: %w", rel, err)
		}
		return b, nil
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read raw output %s: %w", rel, err)
	}
	b, err := io.ReadAll(io.LimitReader(zr, MaxRawBytes+4096))
	if err != nil {
		return nil, fmt.Errorf("read raw output %s: %w", rel, err)
	}
	return b, nil
}
