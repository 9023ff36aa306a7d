package gpfscmd

import (
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/gpfs"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]uint64{"4294967296": 4 << 30, "16G": 16 << 30, "512M": 512 << 20, "1T": 1 << 40, "1.5g": 3 << 29, "8K": 8192, "16GiB": 16 << 30} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "G", "lots", "-1G", "99999999999999999999P"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	if FormatSize(16<<30) != "16G" || FormatSize(3<<29) != "1.5G" || FormatSize(100) != "100" {
		t.Error("FormatSize")
	}
}

func TestMemTotal(t *testing.T) {
	if n, err := ParseMemTotal([]byte("MemFree: 1 kB\nMemTotal:       263921532 kB\n")); err != nil || n != 263921532*1024 {
		t.Fatalf("%d %v", n, err)
	}
	_, err := ParseMemTotal([]byte("MemTotal: lots kB\n"))
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != MeminfoTool || pe.Line != 1 {
		t.Fatalf("err = %v", err)
	}
	if _, err := ParseMemTotal([]byte("MemFree: 1 kB\n")); !errors.As(err, &pe) || pe.Line != 0 {
		t.Fatalf("err = %v", err)
	}
}

func TestSameValue(t *testing.T) {
	for _, c := range []struct {
		attr, a, b string
		same       bool
	}{
		{"pagepool", "4G", "4294967296", true}, {"verbsRdma", "enable", "yes", true}, {"verbsPorts", "mlx5_0/1  mlx5_1/1", "mlx5_0/1 mlx5_1/1", true},
		{"verbsPorts", "MLX5_0/1", "mlx5_0/1", false}, {"verbsRdma", "enable", "disable", false}, {"pagepool", "4G", "8G", false},
	} {
		if SameValue(c.attr, c.a, c.b) != c.same {
			t.Errorf("SameValue(%s, %q, %q) = %t", c.attr, c.a, c.b, !c.same)
		}
	}
}

// TestScopeValueOnSample uses the plain mmlsconfig sample: a cluster-wide
// block and a [gpfs01,gpfs02,gpfs03] section.
func TestScopeValueOnSample(t *testing.T) {
	s := string(samples.Read(t, "gpfs/mmlsconfig-clean-4.2.3-PARTIAL.txt"))
	s = s[strings.Index(s, "\n")+1:] // the pasted prompt line
	cfg, err := gpfs.ParseMmlsconfig([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	if v, set, mixed := ScopeValue(cfg, "maxFilesToCache", []string{"gpfs02"}); v != "4M" || !set || mixed {
		t.Errorf("gpfs02 maxFilesToCache = %q %t %t", v, set, mixed)
	}
	if _, set, _ := ScopeValue(cfg, "maxFilesToCache", nil); set {
		t.Error("maxFilesToCache has no cluster-wide value")
	}
	if _, _, mixed := ScopeValue(cfg, "maxFilesToCache", []string{"gpfs01", "client01"}); !mixed {
		t.Error("gpfs01 and client01 differ")
	}
	if v, set := Configured(cfg, "verbsRdma", "gpfs01", nil); v != "disable" || set {
		t.Errorf("unset verbsRdma = %q %t", v, set)
	}
}

func TestParsePort(t *testing.T) {
	for in, want := range map[string]string{"mlx5_0/1": "mlx5_0/1", "mlx5_0": "mlx5_0/1", "mlx5_1/2/3": "mlx5_1/2"} {
		if p, err := ParsePort(in); err != nil || p.String() != want {
			t.Errorf("ParsePort(%q) = %v, %v", in, p, err)
		}
	}
	for _, bad := range []string{"", "/1", "mlx5_0/0", "mlx5_0/x", "a/1/2/3"} {
		if _, err := ParsePort(bad); err == nil {
			t.Errorf("ParsePort(%q) accepted", bad)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"4G", "4294967296", "1.5T", "16GiB", "", "k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { _, _ = ParseSize(s) })
}

func FuzzParseMemTotal(f *testing.F) {
	f.Add([]byte("MemTotal:       263921532 kB\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := ParseMemTotal(b); err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) {
				t.Fatalf("not a parse error: %v", err)
			}
		}
	})
}
