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

// chunks is a reader that returns its pieces one Read at a time, as a
// channel returns the packets it has.
type chunks struct{ parts []string }

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.parts) == 0 {
		return 0, io.EOF
	}
	n := copy(p, c.parts[0])
	c.parts[0] = c.parts[0][n:]
	if c.parts[0] == "" {
		c.parts = c.parts[1:]
	}
	return n, nil
}

func TestCopyPooledSmallThenLarge(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts []string
	}{
		{"nothing", nil},
		{"one short line", []string{"ok\n"}},
		{"exactly the small buffer", []string{strings.Repeat("a", smallCopyBuf)}},
		{"small, then more", []string{"x", strings.Repeat("b", 3*largeCopyBuf+7), "tail"}},
		{"many pieces", []string{strings.Repeat("c", smallCopyBuf+1), strings.Repeat("d", largeCopyBuf), "e"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := strings.Join(tc.parts, "")
			var dst onlyWrites
			n, err := copyPooled(&dst, &chunks{parts: append([]string(nil), tc.parts...)})
			if err != nil || n != int64(len(want)) || dst.b.String() != want {
				t.Fatalf("copied %d of %d bytes, err %v", n, len(want), err)
			}
		})
	}
}

type failingWriter struct{ after int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.after <= 0 {
		return 0, io.ErrClosedPipe
	}
	f.after--
	return len(p), nil
}

type shortWriter struct{}

func (shortWriter) Write(p []byte) (int, error) { return len(p) / 2, nil }

func TestCopyPooledErrors(t *testing.T) {
	src := func() io.Reader { return &chunks{parts: []string{"one", "two", "three"}} }
	if n, err := copyPooled(&failingWriter{after: 1}, src()); err != io.ErrClosedPipe || n != 3 {
		t.Errorf("failing writer: %d, %v; want 3, io.ErrClosedPipe", n, err)
	}
	if _, err := copyPooled(shortWriter{}, src()); err != io.ErrShortWrite {
		t.Errorf("short writer: %v; want io.ErrShortWrite", err)
	}
	boom := io.ErrUnexpectedEOF
	r := io.MultiReader(strings.NewReader("abc"), iotestErr{boom})
	var dst onlyWrites
	if n, err := copyPooled(&dst, r); err != boom || n != 3 {
		t.Errorf("read error: %d, %v; want 3, %v", n, err, boom)
	}
}

type iotestErr struct{ err error }

func (e iotestErr) Read([]byte) (int, error) { return 0, e.err }
