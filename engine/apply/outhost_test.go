package apply

import (
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/engine/event"
)

// chunks feeds writes to a lineWriter and returns what it emitted.
func chunks(writes ...string) []string {
	var got []string
	w := &lineWriter{obs: event.Func(func(e event.Event) { got = append(got, e.(event.Output).Line) })}
	for _, p := range writes {
		if n, err := w.Write([]byte(p)); n != len(p) || err != nil {
			panic("lineWriter.Write must take everything")
		}
	}
	w.Flush()
	return got
}

func TestLineWriterEmitsOneChunkPerWrite(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		want   []string
	}{
		{"many lines in one write are one event", []string{"a\nb\nc\n"}, []string{"a\nb\nc"}},
		{"an unfinished line waits for its end", []string{"a\nb", "c\nd\n"}, []string{"a", "bc\nd"}},
		{"a line in pieces is one line", []string{"ab", "cd", "ef\n"}, []string{"abcdef"}},
		{"the unfinished last line is flushed", []string{"a\nb"}, []string{"a", "b"}},
		{"carriage returns at line ends go", []string{"a\r\nb\r\n", "c\r"}, []string{"a\nb", "c"}},
		{"a carriage return inside a line stays", []string{"50%\r100%\n"}, []string{"50%\r100%"}},
		{"empty lines are kept", []string{"\n\na\n"}, []string{"\n\na"}},
		{"nothing printed, nothing emitted", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if d := cmp.Diff(tc.want, chunks(tc.writes...)); d != "" {
				t.Errorf("chunks (-want +got):\n%s", d)
			}
		})
	}
}

func TestLineWriterCutsEndlessLines(t *testing.T) {
	long := strings.Repeat("x", 2*maxLine+10)
	got := chunks(long[:100], long[100:], "\n")
	want := []string{long[:maxLine], long[maxLine : 2*maxLine], long[2*maxLine:]}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("chunks differ (-want +got):\n%.500s", d)
	}
}

// The tee of a stream writes what io.MultiWriter(module's writer, line
// writer) would: the module's writer first, its error or short write ends
// the write, and without a module writer only the line writer gets it.
func TestTeeWritesAsMultiWriter(t *testing.T) {
	var lines []string
	lw := &lineWriter{obs: event.Func(func(e event.Event) { lines = append(lines, e.(event.Output).Line) })}
	var mod strings.Builder
	var tt tee
	w := tt.to(&mod, lw)
	if n, err := w.Write([]byte("a\nb\n")); n != 4 || err != nil {
		t.Fatalf("write: %d, %v", n, err)
	}
	if mod.String() != "a\nb\n" || !cmp.Equal(lines, []string{"a\nb"}) {
		t.Errorf("module got %q, events %q", mod.String(), lines)
	}
	if got := (&tee{}).to(nil, lw); got != io.Writer(lw) {
		t.Errorf("no module writer: %T, want the line writer", got)
	}
	for _, tc := range []struct {
		w    io.Writer
		n    int
		want error
	}{
		{errWriter{n: 1, err: io.ErrClosedPipe}, 1, io.ErrClosedPipe},
		{errWriter{n: 2}, 2, io.ErrShortWrite},
	} {
		lines = nil
		var tt tee
		n, err := tt.to(tc.w, lw).Write([]byte("xyz\n"))
		mn, merr := io.MultiWriter(tc.w, &strings.Builder{}).Write([]byte("xyz\n"))
		if n != tc.n || err != tc.want || n != mn || err != merr || lines != nil {
			t.Errorf("%#v: %d, %v (MultiWriter %d, %v), events %q", tc.w, n, err, mn, merr, lines)
		}
	}
}

type errWriter struct {
	n   int
	err error
}

func (w errWriter) Write([]byte) (int, error) { return w.n, w.err }
