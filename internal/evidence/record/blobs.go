package record

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/klauspost/compress/zstd"
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

// blobDir is where versions 2 to 4 keep raw outputs, by SHA-256 of the content.
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

// cutValues caps every string inside a result value, in place for maps
// and lists. A string is stored back only when it was cut: storing every
// string back boxed it anew, an allocation per string in every result.
func cutValues(v any) any {
	if s, ok := v.(string); ok {
		c, _ := cut(s, MaxValueBytes)
		return c
	}
	cutInside(v)
	return v
}

func cutInside(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok {
				if c, cutOff := cut(s, MaxValueBytes); cutOff {
					x[k] = c
				}
				continue
			}
			cutInside(e)
		}
	case []any:
		for i, e := range x {
			if s, ok := e.(string); ok {
				if c, cutOff := cut(s, MaxValueBytes); cutOff {
					x[i] = c
				}
				continue
			}
			cutInside(e)
		}
	}
}

// Reference bounds: the writer keeps in memory, per step and output name,
// the first output of at least minRefBytes as the reference later hosts'
// outputs of that step and name are compressed against, with an encoder
// holding it as its dictionary. At most maxRefs references and
// maxRefBytes of their content are kept; past them an output is stored
// without a reference. The 1,000-node verify has about 20 step and
// output names, three of them (the GPFS log, mmdiag --network, mmfsadm
// test verbs conn) a megabyte or near it per host.
const (
	minRefBytes = 4 << 10
	maxRefs     = 32
	maxRefBytes = 16 << 20
)

// blobStore is the Writer's blob compression state. It is used under the
// Writer's lock: one blob is compressed at a time, whatever the forks,
// by one of two encoders: plain, and refEnc, whose dictionary is the
// reference refFor (reset to another reference when the output's step
// and name have another: a zstd encoder holds about 3 MB, an encoder per
// reference held 9 MB each, 114 MiB more peak RSS at 500 nodes).
type blobStore struct {
	written  map[string]bool // SHA-256 hex of the blobs written
	plain    *zstd.Encoder   // for blobs without a reference
	refEnc   *zstd.Encoder   // for blobs with the reference refFor
	refFor   string
	refs     map[refKey]*reference
	refBytes int
	scratch  []byte // the content being compressed
	out      []byte // the compressed blob
}

type refKey struct{ step, name string }

// reference is a stored blob later outputs of its step and name are
// compressed against.
type reference struct {
	hex     string
	content []byte
}

func newBlobStore() *blobStore {
	return &blobStore{written: map[string]bool{}, refs: map[refKey]*reference{}}
}

// storeRaw keeps one raw output of a step's output name, already
// redacted: capped, stored once per distinct content as
// raw/sha256/<hex>.zst, compressed against the step and name's reference
// when there is one. It returns the path relative to the record
// directory and whether the output was cut.
func (w *Writer) storeRaw(step, name, content string) (string, bool) {
	content, cutOff := cut(content, MaxRawBytes)
	hexSum := sum(content)
	rel := blobRel(hexSum)
	s := w.store
	if s.written[hexSum] {
		return rel, cutOff
	}
	s.scratch = append(s.scratch[:0], content...)
	key := refKey{step, name}
	ref := s.refs[key]
	if enc := s.refEncoder(ref); enc != nil {
		s.out = encodeBlob(s.out[:0], enc, ref.hex, s.scratch)
	} else {
		ref = nil
		s.out = encodeBlob(s.out[:0], s.plainEncoder(), "", s.scratch)
	}
	if w.rawBytes+int64(len(s.out)) > w.maxRunRaw() {
		note := fmt.Sprintf("[prova: not kept: the run's raw outputs reached the record cap of %d MiB; %d bytes dropped]\n",
			w.maxRunRaw()>>20, len(content))
		noteHex := sum(note)
		if !s.written[noteHex] {
			s.out = encodeBlob(s.out[:0], s.plainEncoder(), "", []byte(note))
			w.writeBlob(noteHex, s.out)
		}
		return blobRel(noteHex), true
	}
	if !w.writeBlob(hexSum, s.out) {
		return rel, cutOff
	}
	if s.refs[key] == nil && len(content) >= minRefBytes && len(s.refs) < maxRefs && s.refBytes+len(content) <= maxRefBytes {
		s.refs[key] = &reference{hex: hexSum, content: bytes.Clone(s.scratch)}
		s.refBytes += len(content)
	}
	s.trim()
	return rel, cutOff
}

// refEncoder is the encoder with ref as its dictionary; nil when ref is
// nil or the encoder refused it (the output is then stored alone).
func (s *blobStore) refEncoder(ref *reference) *zstd.Encoder {
	switch {
	case ref == nil:
		return nil
	case s.refEnc == nil:
		s.refEnc = newEncoder(ref.content)
	case s.refFor != ref.hex:
		if err := s.refEnc.ResetWithOptions(nil, zstd.WithEncoderDictRaw(refID, ref.content)); err != nil {
			s.refEnc, s.refFor = nil, ""
			return nil
		}
	}
	s.refFor = ref.hex
	return s.refEnc
}

func (s *blobStore) plainEncoder() *zstd.Encoder {
	if s.plain == nil {
		s.plain = newEncoder(nil)
	}
	return s.plain
}

// trim drops a scratch buffer a huge output grew, rather than keep it.
func (s *blobStore) trim() {
	if cap(s.scratch) > 2*MaxRawBytes {
		s.scratch = nil
	}
	if cap(s.out) > 2*MaxRawBytes {
		s.out = nil
	}
}

// sum is the SHA-256 hex of content.
func sum(content string) string {
	hs := sha256.New()
	_, _ = io.WriteString(hs, content) // no copy of the content; never fails
	return hex.EncodeToString(hs.Sum(nil))
}

// maxRunRaw is MaxRunRawBytes, or the test's cap.
func (w *Writer) maxRunRaw() int64 {
	if w.runRawCap > 0 {
		return w.runRawCap
	}
	return MaxRunRawBytes
}

// writeBlob writes a compressed blob and counts it; false if the write
// failed (the failure is the Writer's error, and stops the run).
func (w *Writer) writeBlob(hexSum string, blob []byte) bool {
	full := filepath.Join(w.dir, filepath.FromSlash(blobRel(hexSum)))
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
		return false
	}
	if err := writeFile(filepath.Dir(full), filepath.Base(full), blob, false); err != nil {
		w.fail(fmt.Errorf("write raw output: %w", err))
		return false
	}
	w.rawBytes += int64(len(blob))
	w.store.written[hexSum] = true
	return true
}
