package record

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// ReadRaw returns a raw output named by a HostResult.Raw path: a version
// 4 blob (raw/sha256/<hex>.zst, decompressed, against the reference it
// names if it names one), a version 2 or 3 blob (raw/sha256/<hex>.gz,
// decompressed) or a version 1 text file. A version 4 blob's content is
// checked against its name. Paths leaving the record directory are
// refused; a missing or corrupt blob or reference is an error naming it.
func (r *Record) ReadRaw(rel string) ([]byte, error) {
	p := filepath.FromSlash(rel)
	if !filepath.IsLocal(p) {
		return nil, fmt.Errorf("read raw output %q: path leaves the record", rel)
	}
	switch {
	case strings.HasSuffix(rel, blobExt):
		return r.readBlob(rel)
	case strings.HasSuffix(rel, ".gz"):
		return r.readGzip(rel)
	}
	b, err := os.ReadFile(filepath.Join(r.Dir, p))
	if err != nil {
		return nil, fmt.Errorf("read raw output: %w", err)
	}
	return b, nil
}

// RawIsText reports whether a HostResult.Raw path is a plain text file,
// which a browser opens as it is (version 1), rather than a compressed
// blob.
func RawIsText(rel string) bool {
	return !strings.HasSuffix(rel, blobExt) && !strings.HasSuffix(rel, ".gz")
}

// readBlob reads a version 4 blob and, when it names one, its reference.
func (r *Record) readBlob(rel string) ([]byte, error) {
	m := blobName.FindStringSubmatch(rel)
	if m == nil {
		return nil, fmt.Errorf("read raw output %s: not a raw/sha256/<hex>%s blob", rel, blobExt)
	}
	b, err := readBlobFile(r.Dir, rel)
	if err != nil {
		return nil, fmt.Errorf("read raw output: %w", err)
	}
	refRel, frame, err := splitBlob(b)
	if err != nil {
		return nil, fmt.Errorf("read raw output %s: %w", rel, err)
	}
	var refHex string
	var ref []byte
	if refRel != "" {
		if refRel == rel {
			return nil, fmt.Errorf("read raw output %s: it names itself as its reference: corrupt blob", rel)
		}
		rb, err := readBlobFile(r.Dir, refRel)
		if err != nil {
			return nil, fmt.Errorf("read raw output %s: its reference: %w", rel, err)
		}
		inner, refFrame, err := splitBlob(rb)
		if err == nil && inner != "" {
			err = fmt.Errorf("it names a reference of its own (%s); a reference is a blob without one", inner)
		}
		refHex = blobName.FindStringSubmatch(refRel)[1]
		if err == nil {
			ref, err = decodeFrame(refFrame, nil)
		}
		if err == nil && !checkSum(ref, refHex) {
			err = fmt.Errorf("its content does not match its name: corrupt blob")
		}
		if err != nil {
			return nil, fmt.Errorf("read raw output %s: its reference %s: %w", rel, refRel, err)
		}
	}
	out, err := decodeFrame(frame, ref)
	if err != nil {
		return nil, fmt.Errorf("read raw output %s: %w", rel, err)
	}
	if !checkSum(out, m[1]) {
		return nil, fmt.Errorf("read raw output %s: its content does not match its name: corrupt blob", rel)
	}
	return out, nil
}

// maxBlobFile bounds a version 4 blob file: zstd stores incompressible
// text in about its own size, and no content exceeds maxDecoded.
const maxBlobFile = maxDecoded + 64<<10

// readBlobFile reads a version 4 blob file, refusing one larger than any
// blob the writer makes (a damaged or foreign record).
func readBlobFile(dir, rel string) ([]byte, error) {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxBlobFile+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	if len(b) > maxBlobFile {
		return nil, fmt.Errorf("%s: larger than any blob (%d bytes): corrupt blob", rel, maxBlobFile)
	}
	return b, nil
}

// readGzip reads a version 2 or 3 blob.
func (r *Record) readGzip(rel string) ([]byte, error) {
	f, err := os.Open(filepath.Join(r.Dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, fmt.Errorf("read raw output: %w", err)
	}
	defer f.Close()
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
