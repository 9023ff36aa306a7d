package copy

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestParseRealTools reads the output of the real sha256sum and stat, when
// installed, to check the parsers follow their format.
func TestParseRealTools(t *testing.T) {
	for _, tool := range []string{"sha256sum", "stat"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	dir := t.TempDir()
	for _, name := range []string{"plain", "with\\backslash", "new\nline"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("abc"), 0o640); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("sha256sum", "--", p).Output()
		if err != nil {
			t.Fatal(err)
		}
		got, err := parseSHA256Sum(string(out))
		if err != nil || got != sum([]byte("abc")) {
			t.Errorf("%q: parseSHA256Sum(%q) = %s, %v", name, out, got, err)
		}
		out, err = exec.Command("stat", "-c", "%a", "--", p).Output()
		if err != nil {
			t.Fatal(err)
		}
		if m, err := parseStatMode(string(out)); err != nil || m != 0o640 {
			t.Errorf("%q: parseStatMode(%q) = %o, %v", name, out, m, err)
		}
	}
}

func FuzzParseSHA256Sum(f *testing.F) {
	f.Add("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  /etc/x\n")
	f.Add(`\ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  /tmp/new\nline` + "\n")
	f.Add("")
	f.Add("sha256sum: /x: No such file or directory\n")
	f.Fuzz(func(t *testing.T, s string) {
		if got, err := parseSHA256Sum(s); err == nil && len(got) != 64 {
			t.Fatalf("accepted %q as checksum %q", s, got)
		}
	})
}

func FuzzParseStatMode(f *testing.F) {
	for _, s := range []string{"644\n", "4755\n", "0\n", "", "-rw-r--r--\n", "99999999999\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if m, err := parseStatMode(s); err == nil && m > 0o7777 {
			t.Fatalf("accepted %q as mode %o", s, m)
		}
	})
}
