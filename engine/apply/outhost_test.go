package apply

import (
	"context"
	"io"
	"io/fs"
	"strings"
	"sync"
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

// printHost prints its command's name on stdout (without a newline, so
// the line is emitted at the end of the command), after waiting for its
// gate when the command is "wait".
type printHost struct {
	gate    chan struct{}
	started chan struct{}
}

func (printHost) Name() string { return "n1" }

func (h printHost) Run(_ context.Context, cmd string, _ io.Reader, stdout, _ io.Writer) (int, error) {
	if cmd == "wait" {
		close(h.started)
		<-h.gate
	}
	io.WriteString(stdout, "partial "+cmd)
	return 0, nil
}

func (printHost) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (printHost) Get(context.Context, string, io.Writer) error              { return nil }

// A host-step's commands share the streaming host's output one after
// another; one that starts while another runs gets its own, and each
// command's unfinished line is emitted with its own command.
func TestStreamingHostCommandsKeepTheirOutput(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	obs := event.Func(func(e event.Event) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, e.(event.Output).Stream+": "+e.(event.Output).Line)
	})
	ph := printHost{gate: make(chan struct{}), started: make(chan struct{})}
	h := &streamingHost{Host: ph, step: "shell.a", obs: obs}
	ctx := context.Background()
	for _, c := range []string{"one", "two"} {
		var mod strings.Builder
		if _, err := h.Run(ctx, c, nil, &mod, nil); err != nil || mod.String() != "partial "+c {
			t.Fatalf("%s: module got %q, %v", c, mod.String(), err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.Run(ctx, "wait", nil, nil, nil)
	}()
	<-ph.started
	h.Run(ctx, "three", nil, nil, nil) // while "wait" holds the host's own output
	close(ph.gate)
	<-done
	want := []string{"stdout: partial one", "stdout: partial two", "stdout: partial three", "stdout: partial wait"}
	if d := cmp.Diff(want, lines); d != "" {
		t.Errorf("events (-want +got):\n%s", d)
	}
}
