package record

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Size caps. They hold for everything the record keeps, whatever a module
// let through: a command printing 200 MB leaves at most MaxRawBytes of it.
const (
	// MaxRawBytes caps one raw output (stdout, stderr, one evidence text).
	MaxRawBytes = 1 << 20
	// MaxValueBytes caps one string inside a step result, and a message.
	MaxValueBytes = 64 << 10
	// MaxRunRawBytes caps the raw outputs of a whole run (before
	// compression); outputs past it are named in the record but not kept.
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
func (w *Writer) storeRaw(content string) (string, bool) {
	content, cutOff := cut(content, MaxRawBytes)
	if w.rawBytes+int64(len(content)) > MaxRunRawBytes {
		content = fmt.Sprintf("[prova: not kept: the run's raw outputs reached the record cap of %d MiB; %d bytes dropped]\n",
			MaxRunRawBytes>>20, len(content))
		cutOff = true
	}
	sum := sha256.Sum256([]byte(content))
	hexSum := hex.EncodeToString(sum[:])
	rel := path.Join(blobDir, hexSum+".gz")
	if w.blobs[hexSum] {
		return rel, cutOff
	}
	w.rawBytes += int64(len(content))
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestSpeed) // a valid level never fails
	_, _ = zw.Write([]byte(content))                 // writes to a buffer
	_ = zw.Close()
	full := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
		return rel, cutOff
	}
	if err := writeFile(filepath.Dir(full), filepath.Base(full), b.Bytes(), false); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
		return rel, cutOff
	}
	w.blobs[hexSum] = true
	return rel, cutOff
}

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
