package apply

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// chunks feeds writes to a lineWriter and returns what it emitted.
func chunks(writes ...string) []string {
	var got []string
	w := &lineWriter{emit: func(s string) { got = append(got, s) }}
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
