package baseline

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseNumber: no panic, and a value read back is a real number
// (ParseFloat's Inf/NaN spellings are not numbers of a measurement).
func FuzzParseNumber(f *testing.F) {
	for _, s := range []string{"3.1", "3.1 us", "42%", "12.5GiB/s", "1e3", "-2", "", "NaN", "Inf", "2 of 4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, ok := ParseNumber(s); ok && math.IsNaN(v) {
			t.Errorf("ParseNumber(%q) = NaN", s)
		}
	})
}

// FuzzLoad: no file content makes Load panic.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{`{"schema":"prova-report/1","run":{"run_id":"x"},"steps":[{"step":"a","hosts":{"h":{"status":"ok","result":{"lat_avg_us":1}}}}]}`,
		`{"version":1}`, `{"schema":5}`, `[]`, `null`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "b.json")
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		rec, err := Load(p)
		if err == nil {
			Compare(rec, rec, Default())
		}
	})
}
