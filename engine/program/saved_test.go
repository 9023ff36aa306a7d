package program

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A saved plan reads back as written; any edit of it, its variables
// included, is refused by the integrity digest.
func TestSavedPlanIntegrity(t *testing.T) {
	p := filepath.Join(t.TempDir(), "plan.json")
	s := &Saved{Runbook: "rb.hcl", RunbookHash: "abc", Inventory: "inv.hcl", InventoryHash: "def",
		VarFlags: []string{"restart_mode=rolling", `verbs_ports=["mlx5_0/1"]`}}
	if err := s.Write(p); err != nil {
		t.Fatal(err)
	}
	got, ok, err := ReadSaved(p)
	if err != nil || !ok {
		t.Fatalf("ReadSaved = %v, %v", ok, err)
	}
	if strings.Join(got.VarFlags, " ") != strings.Join(s.VarFlags, " ") || !strings.HasPrefix(got.Integrity, "sha256:") {
		t.Fatalf("read back %+v", got)
	}
	b, _ := os.ReadFile(p)
	for name, edit := range map[string][2]string{
		"var_flags":    {"restart_mode=rolling", "restart_mode=cluster"},
		"runbook_hash": {`"abc"`, `"abd"`},
		"no integrity": {`"integrity"`, `"integrity_"`},
		"empty digest": {got.Integrity, ""},
	} {
		if !strings.Contains(string(b), edit[0]) {
			t.Fatalf("%s: %q not in the plan file", name, edit[0])
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), edit[0], edit[1], 1)), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := ReadSaved(p); !ok || err == nil || !strings.Contains(err.Error(), "changed after plan saved it") {
			t.Errorf("%s edited: ReadSaved = %v, %v; want it refused", name, ok, err)
		}
	}
}
