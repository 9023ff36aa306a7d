package sshconn

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// onlyWrites is a writer without ReadFrom, like prova's output tees.
type onlyWrites struct{ b bytes.Buffer }

func (o *onlyWrites) Write(p []byte) (int, error) { return o.b.Write(p) }

func TestPooledCopyCopiesEverything(t *testing.T) {
	src := strings.Repeat("0123456789abcdef\n", 10000) // several buffers' worth
	var dst onlyWrites
	w := pooledCopy(&dst)
	if _, ok := w.(io.ReaderFrom); !ok {
		t.Fatal("pooledCopy did not add a ReadFrom")
	}
	// iotest-like reader without WriterTo, as an SSH channel is.
	n, err := io.Copy(w, struct{ io.Reader }{strings.NewReader(src)})
	if err != nil || n != int64(len(src)) || dst.b.String() != src {
		t.Fatalf("copied %d bytes, err %v; equal: %v", n, err, dst.b.String() == src)
	}
	if pooledCopy(nil) != nil {
		t.Error("pooledCopy(nil) is not nil: the session would not discard the stream")
	}
	var buf bytes.Buffer
	if pooledCopy(&buf) != io.Writer(&buf) {
		t.Error("a writer with its own ReadFrom was wrapped")
	}
}
