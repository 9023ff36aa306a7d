package sshconn

import (
	"io"
	"sync"
)

// x/crypto/ssh copies a session's stdout and stderr from the channel with
// io.Copy, which allocates a 32 KiB buffer per stream per command unless
// the writer has a ReadFrom: 64 KiB of garbage per host-step, most of
// prova's allocations in a fan-out. pooledCopy gives the writer a ReadFrom
// that copies through pooled buffers, and copyOut copies stdout the same
// way.
//
// Most commands print little or nothing, and a stream's copy waits in its
// first Read for the whole time the command runs: holding an 8 KiB buffer
// there meant 2 x 8 KiB per running command, 3.2 MiB live at 200 hosts,
// twice that in peak heap. So the first Read goes into a small buffer and
// only a stream that fills it moves to a large one.

// Buffer sizes: small for the first Read of every stream, large (what
// io.Discard copies with) for a stream with more output than that.
const (
	smallCopyBuf = 512
	largeCopyBuf = 8 << 10
)

var (
	smallBufs = sync.Pool{New: func() any { b := make([]byte, smallCopyBuf); return &b }}
	largeBufs = sync.Pool{New: func() any { b := make([]byte, largeCopyBuf); return &b }}
)

// copyPooled copies r to w until EOF as io.Copy does (EOF is not an
// error; a short write is io.ErrShortWrite), through pooled buffers: a
// small one until a Read fills it, then a large one.
func copyPooled(w io.Writer, r io.Reader) (written int64, err error) {
	sp := smallBufs.Get().(*[]byte)
	var lp *[]byte
	defer func() {
		if sp != nil {
			smallBufs.Put(sp)
		}
		if lp != nil {
			largeBufs.Put(lp)
		}
	}()
	buf := *sp
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			nw, werr := w.Write(buf[:n])
			if nw < 0 || n < nw {
				nw, werr = 0, io.ErrShortWrite
			}
			written += int64(nw)
			if werr != nil {
				return written, werr
			}
			if nw != n {
				return written, io.ErrShortWrite
			}
		}
		if rerr != nil {
			if rerr == io.EOF {
				return written, nil
			}
			return written, rerr
		}
		if n == len(buf) && lp == nil {
			// More output is likely: read the rest in large pieces.
			smallBufs.Put(sp)
			sp = nil
			lp = largeBufs.Get().(*[]byte)
			buf = *lp
		}
	}
}

// pooledCopy returns w with a ReadFrom that uses copyPooled. A nil w
// stays nil (the session then discards the stream), and a writer with a
// ReadFrom of its own keeps it.
func pooledCopy(w io.Writer) io.Writer { return pooledCopyVia(w, new(bufWriter)) }

// pooledCopyVia is pooledCopy with the wrapper kept in b, which the caller
// reuses (cmdWatch): no allocation per stream.
func pooledCopyVia(w io.Writer, b *bufWriter) io.Writer {
	if w == nil {
		return nil
	}
	if _, ok := w.(io.ReaderFrom); ok {
		return w
	}
	*b = bufWriter{w}
	return b
}

type bufWriter struct{ w io.Writer }

func (b bufWriter) Write(p []byte) (int, error) { return b.w.Write(p) }

// ReadFrom copies r to the writer until EOF through pooled buffers.
func (b bufWriter) ReadFrom(r io.Reader) (int64, error) { return copyPooled(b.w, r) }
