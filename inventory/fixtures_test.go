package inventory

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
)

// fixtureDirs are the formats whose testdata/<fmt>/{valid,errors} the
// fixture tests walk.
var fixtureDirs = []string{"hcl", "ini", "yaml"}

func fixtures(t testing.TB, kind string) []string {
	t.Helper()
	var files []string
	for _, f := range fixtureDirs {
		m, err := filepath.Glob(filepath.Join("testdata", f, kind, "*"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no %s fixtures", kind)
	}
	return files
}

// checkGolden compares got with the golden file, rewriting it when
// UPDATE_GOLDEN=1.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with UPDATE_GOLDEN=1 to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", path, diff)
	}
}

// TestValidFixtures loads every valid fixture without diagnostics and
// compares its rendering with a golden file.
func TestValidFixtures(t *testing.T) {
	for _, path := range fixtures(t, "valid") {
		t.Run(path, func(t *testing.T) {
			inv, diags := Load(path)
			if len(diags) > 0 {
				t.Fatalf("unexpected diagnostics: %s", diags.Error())
			}
			var buf bytes.Buffer
			if err := inv.Render(&buf); err != nil {
				t.Fatal(err)
			}
			name := strings.ReplaceAll(strings.TrimPrefix(path, "testdata"+string(filepath.Separator)), string(filepath.Separator), "_")
			checkGolden(t, filepath.Join("testdata", "golden", name+".golden"), buf.Bytes())
		})
	}
}

var errorComment = regexp.MustCompile(`[#;]\s*ERROR:\s*(.+?)\s*$`)

// TestErrorFixtures checks, Terraform style, that each error fixture gives
// exactly the diagnostics announced by "# ERROR: <summary>" comments on the
// offending lines.
func TestErrorFixtures(t *testing.T) {
	for _, path := range fixtures(t, "errors") {
		t.Run(path, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := map[int][]string{}
			for i, line := range strings.Split(string(src), "\n") {
				if m := errorComment.FindStringSubmatch(line); m != nil {
					want[i+1] = append(want[i+1], m[1])
				}
			}
			inv, diags := Parse(path, src)
			if inv != nil {
				t.Errorf("Parse returned an inventory along with errors")
			}
			got := map[int][]string{}
			for _, d := range diags {
				if d.Severity != hcl.DiagError {
					continue
				}
				if d.Subject == nil {
					t.Errorf("diagnostic without subject: %s", d.Error())
					continue
				}
				checkSubject(t, d, len(src))
				got[d.Subject.Start.Line] = append(got[d.Subject.Start.Line], d.Summary)
			}
			for _, m := range []map[int][]string{want, got} {
				for _, s := range m {
					sort.Strings(s)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics by line (-want +got):\n%s\nall: %s", diff, diags.Error())
			}
		})
	}
}

// checkSubject fails when a diagnostic's subject is not inside the input.
func checkSubject(t testing.TB, d *hcl.Diagnostic, n int) {
	t.Helper()
	s := d.Subject
	if s.Start.Byte < 0 || s.End.Byte > n || s.Start.Byte > s.End.Byte {
		t.Errorf("diagnostic %q: subject bytes %d..%d outside input of %d bytes", d.Summary, s.Start.Byte, s.End.Byte, n)
	}
	if s.Start.Line < 1 || s.Start.Column < 1 {
		t.Errorf("diagnostic %q: subject position %d:%d is not 1-based", d.Summary, s.Start.Line, s.Start.Column)
	}
}
