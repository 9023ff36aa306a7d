package inventory

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
)

func seedFuzz(f *testing.F, format string) {
	f.Helper()
	for _, kind := range []string{"valid", "errors"} {
		files, _ := filepath.Glob(filepath.Join("testdata", format, kind, "*"))
		for _, path := range files {
			src, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
}

// fuzzParse checks the parser properties: no panic, error subjects inside
// the input, a usable inventory on success, and determinism.
func fuzzParse(t *testing.T, parse func(string, []byte) (*Inventory, hcl.Diagnostics), src []byte) {
	inv, diags := parse("fuzz", src)
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Subject == nil {
			t.Fatalf("error diagnostic without subject: %s", d.Error())
		}
		checkSubject(t, d, len(src))
	}
	if diags.HasErrors() != (inv == nil) {
		t.Fatalf("inventory %v with errors %v", inv != nil, diags.HasErrors())
	}
	if inv == nil || len(inv.Hosts) > 1000 {
		return // big inventories are correct but slow to check
	}
	var a, b bytes.Buffer
	if err := inv.Render(&a); err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(inv); err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	again, _ := parse("fuzz", src)
	if err := again.Render(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatalf("parsing is not deterministic:\n%s\n---\n%s", a.Bytes(), b.Bytes())
	}
	if len(inv.Hosts) <= 200 {
		roundTrip(t, inv)
	}
}

func FuzzParseHCL(f *testing.F) {
	seedFuzz(f, "hcl")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, parseHCL, src) })
}

func FuzzParseINI(f *testing.F) {
	seedFuzz(f, "ini")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, parseINI, src) })
}

func FuzzParseYAML(f *testing.F) {
	seedFuzz(f, "yaml")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzParse(t, parseYAML, src) })
}

func FuzzSelect(f *testing.F) {
	inv, diags := Parse("p.hcl", []byte(patternInventory))
	if diags.HasErrors() {
		f.Fatal(diags.Error())
	}
	for _, p := range []string{"all", "gpfs:!nsd_servers", "~gpfs0[12]", "gpfs[01:03]", "&storage", "gpfs0*,client1", "x[", "!", "~(", "a:b:c"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, pattern string) {
		hosts, err := inv.Select(pattern)
		if err != nil {
			if hosts != nil {
				t.Fatal("hosts returned with an error")
			}
			return
		}
		if len(hosts) == 0 {
			t.Fatal("no hosts and no error")
		}
		seen := map[string]bool{}
		last := -1
		idx := inv.index()
		for _, h := range hosts {
			if seen[h.Name] {
				t.Fatalf("duplicate host %s", h.Name)
			}
			seen[h.Name] = true
			if idx[h.Name] <= last {
				t.Fatalf("hosts out of declaration order")
			}
			last = idx[h.Name]
		}
	})
}
