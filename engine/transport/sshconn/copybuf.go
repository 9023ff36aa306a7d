package sshconn

import (
	"io"
	"sync"
)

// x/crypto/ssh copies a session's stdout and stderr from the channel with
// io.Copy, which allocates a 32 KiB buffer per stream per command unless
// the writer has a ReadFrom: 64 KiB of garbage per host-step, most of
// prova's allocations in a fan-out. pooledCopy gives the writer a ReadFrom
// that copies through a buffer from copyBufs.

// copyBufs holds 8 KiB copy buffers, the size io.Discard copies with:
// every running command holds two (stdout and stderr), so at 200 hosts
// their size is megabytes of peak memory; a larger buffer would only save
// read calls on long outputs.
var copyBufs = sync.Pool{New: func() any {
	b := make([]byte, 8<<10)
	return &b
}}

// pooledCopy returns w with a ReadFrom that uses a pooled buffer. A nil w
// stays nil (the session then discards the stream), and a writer with a
// ReadFrom of its own keeps it.
func pooledCopy(w io.Writer) io.Writer {
	if w == nil {
		return nil
	}
	if _, ok := w.(io.ReaderFrom); ok {
		return w
	}
	return bufWriter{w}
}

type bufWriter struct{ w io.Writer }

func (b bufWriter) Write(p []byte) (int, error) { return b.w.Write(p) }

// ReadFrom copies r to the writer until EOF through a pooled buffer.
func (b bufWriter) ReadFrom(r io.Reader) (int64, error) {
	bp := copyBufs.Get().(*[]byte)
	defer copyBufs.Put(bp)
	// writerOnly hides this ReadFrom from io.CopyBuffer, which would
	// otherwise call it again.
	return io.CopyBuffer(writerOnly{b.w}, r, *bp)
}

type writerOnly struct{ io.Writer }
