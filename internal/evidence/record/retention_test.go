package record

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestPruneKeepsLastNAndBaselines(t *testing.T) {
	root := t.TempDir()
	var ids []string
	for i := range 6 {
		m := testMeta()
		m.Started = t0.Add(time.Duration(i) * time.Hour)
		m.RunID = NewRunID(m.Started)
		if i == 5 {
			m.Baseline = ids[1] // the newest run names an old one as its baseline
		}
		if i == 4 {
			m.Baseline = filepath.Join(root, ids[0]) // as a directory
		}
		w := create(t, root, m)
		if err := w.Close(""); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, m.RunID)
	}
	if err := os.Mkdir(filepath.Join(root, "notes"), 0o700); err != nil {
		t.Fatal(err)
	}
	removed, err := Prune(root, 2, ids[2])
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{ids[3]}, removed); d != "" {
		t.Errorf("removed (-want +got):\n%s", d)
	}
	ents, _ := os.ReadDir(root)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	sort.Strings(left)
	want := []string{ids[0], ids[1], ids[2], ids[4], ids[5], "notes"}
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("left %v, want %v", left, want)
	}
	if r, err := Prune(root, 0); err != nil || r != nil {
		t.Errorf("keep 0 pruned %v, %v", r, err)
	}
}

func TestCheckRoom(t *testing.T) {
	root := filepath.Join(t.TempDir(), "runs")
	if err := CheckRoom(root, 1); err != nil {
		t.Fatal(err)
	}
	if err := CheckRoom(root, 1<<62); err == nil || !strings.Contains(err.Error(), "needs at least") {
		t.Errorf("CheckRoom with an impossible minimum: %v", err)
	}
	ents, _ := os.ReadDir(root)
	if len(ents) != 0 {
		t.Errorf("probe left behind: %v", ents)
	}
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := CheckRoom(filepath.Join(f, "runs"), 1); err == nil {
		t.Error("CheckRoom under a file")
	}
}
