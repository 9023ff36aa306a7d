package record

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	kgzip "github.com/klauspost/compress/gzip"
)

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
	// klauspost/compress's gzip writes the same format as compress/gzip
	// (the readers use the standard library's). A trail of at most
	// statelessMax bytes is compressed without the compressor's state,
	// in pieces of statelessPiece: its default level allocates and clears
	// 1.09 MB of it, which was 4.7 % of a 10-host run's CPU for a 38 KB
	// trail (stateless: 0.1 ms against 0.8 ms, 4.9 KB against 4.1 KB). A
	// larger trail keeps the default level: on a 4.5 MB trail of a
	// 200-node verify 19 ms against compress/gzip's 66 ms, 184 KB
	// against 188 KB (docs/performance.md).
	// Buffered: the stateless compressor writes blocks of about 250
	// bytes, each its own write(2) straight to the file.
	bw := bufio.NewWriterSize(f, 32<<10)
	err = compressTrail(bw, in)
	if err == nil {
		err = bw.Flush()
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

// statelessMax is the largest trail compressed without the compressor's
// state.
const statelessMax = 1 << 20

// statelessPiece is how much of the trail the stateless compressor is
// given at a time. Read whole, a 200-host trail (700 KB) was the largest
// allocation of the record's Close and came at the run's peak resident
// set: in pieces the peak is 1.0-1.3 MiB lower, for 4 % more compressed
// bytes (each piece starts without the previous one's 8 KB dictionary:
// 69.5 KB against 66.8 KB; docs/performance.md, fifteenth round).
const statelessPiece = 64 << 10

// compressTrail writes in, gzip-compressed, to out.
func compressTrail(out io.Writer, in *os.File) error {
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if st.Size() <= statelessMax {
		zw, _ := kgzip.NewWriterLevel(out, kgzip.StatelessCompression) // a valid level never fails
		// Plain reader and writer: io.CopyBuffer would otherwise hand the
		// copy to the file's WriteTo, in pieces of its own size.
		piece := make([]byte, statelessPiece)
		if _, err := io.CopyBuffer(struct{ io.Writer }{zw}, struct{ io.Reader }{in}, piece); err != nil {
			return err
		}
		return zw.Close()
	}
	zw, _ := kgzip.NewWriterLevel(out, kgzip.DefaultCompression)
	_, err = io.Copy(zw, in)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	return err
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
