package record

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Both ways of compressing the trail (stateless in pieces of
// statelessPiece up to statelessMax, the default level above) write gzip
// the standard library reads back byte for byte, at the limits and on
// either side.
func TestCompressTrailRoundTrips(t *testing.T) {
	line := []byte(`{"type":"host_finished","time":"2026-12-01T20:00:00.123456789Z","step":"shell.s01","host":"h001","status":"ok"}` + "\n")
	for _, n := range []int{0, 1, len(line), statelessPiece - 1, statelessPiece, statelessPiece + 1, 3*statelessPiece + 5, statelessMax - 1, statelessMax, statelessMax + 1, 3*statelessMax + 17} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var plain []byte
			for i := 0; len(plain) < n; i++ {
				plain = append(plain, bytes.Replace(line, []byte("h001"), fmt.Appendf(nil, "h%03d", i%1000), 1)...)
			}
			plain = plain[:n]
			path := filepath.Join(t.TempDir(), "events.jsonl")
			if err := os.WriteFile(path, plain, 0o600); err != nil {
				t.Fatal(err)
			}
			in, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			var out bytes.Buffer
			if err := compressTrail(&out, in); err != nil {
				t.Fatal(err)
			}
			zr, err := gzip.NewReader(&out)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, plain) {
				t.Fatalf("decompressed %d bytes differ from the %d written", len(got), len(plain))
			}
			if n >= 1<<16 && out.Len() > n/4 {
				t.Errorf("%d bytes compressed to %d: not compressed", n, out.Len())
			}
		})
	}
}
