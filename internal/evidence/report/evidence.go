package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/provadev/prova/internal/evidence/record"
)

// EvidenceDir is the directory, beside the report files, that holds the
// raw outputs the report links to, as plain text: the record keeps them
// compressed and by content hash (version 4: zstd, most of them against a
// reference blob), which a browser cannot open.
const EvidenceDir = "evidence"

// rawLink is where a report links a raw output (a record path): a file
// under EvidenceDir once WriteFiles exported it, else the record path.
func (r *Report) rawLink(p string) string {
	if l, ok := r.links[p]; ok {
		return l
	}
	return p
}

// exportEvidence writes every raw output the three lines link to into
// dir/evidence as text, named by step, host and output, and makes the
// links point there. A version 1 record's text files are linked in place
// when the report goes into the record directory.
func (r *Report) exportEvidence(dir string) error {
	r.links = map[string]string{}
	inPlace := r.Run.Dir != "" && sameDir(dir, r.Run.Dir)
	for _, l := range r.Lines {
		for i, p := range l.Raw {
			if _, done := r.links[p]; done {
				continue
			}
			if inPlace && record.RawIsText(p) {
				r.links[p] = p
				continue
			}
			b, err := r.Run.ReadRaw(p)
			if err != nil {
				return fmt.Errorf("export raw output for %s: %w", l.Host, err)
			}
			rel := path.Join(EvidenceDir, fileName(l.Host+"."+l.rawNames[i])+".txt")
			full := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				return fmt.Errorf("export raw output: %w", err)
			}
			if err := os.WriteFile(full, b, 0o644); err != nil {
				return fmt.Errorf("export raw output: %w", err)
			}
			r.links[p] = rel
		}
	}
	return nil
}

func sameDir(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// fileName turns a label into one safe file name: letters, digits, '.',
// '_' and '-'; long names keep their start and a hash.
func fileName(s string) string {
	var b strings.Builder
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '.', c == '_', c == '-':
			b.WriteRune(c)
		default:
			b.WriteByte('_')
		}
	}
	n := strings.Trim(strings.ReplaceAll(b.String(), "..", "_"), "._")
	if len(n) > 80 {
		sum := sha256.Sum256([]byte(s))
		n = n[:70] + "-" + hex.EncodeToString(sum[:4])
	}
	if n == "" {
		n = "raw"
	}
	return n
}
