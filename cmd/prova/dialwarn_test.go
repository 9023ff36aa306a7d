package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/internal/evidence/record"
)

// TestDialWarningReachesTheRecord: the connections open while the run
// record is being created (internal/cli/recordstart.go); a warning a dial
// gives then (here --ssh-accept-new adding the host's key to an empty
// known_hosts) is in the record's run.json and trail, after the trail's
// first line, and on the console, as when the dials began after the record
// was made.
func TestDialWarningReachesTheRecord(t *testing.T) {
	l := newFaultLab(t)
	write(t, filepath.Join(l.dir, "known_hosts"), "", 0o600)
	rb := filepath.Join(l.dir, "rb.hcl")
	write(t, rb, `step "shell" "one" { command = "true" }`+"\n", 0o644)
	runs := filepath.Join(l.dir, "runs")
	code, out, errOut := l.prova(t, "apply", rb, "-i", l.inv, "--ssh-accept-new", "--record-dir", runs)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	const want = "permanently added"
	if !strings.Contains(out+errOut, want) {
		t.Errorf("the console does not show the dial's warning:\n%s%s", out, errOut)
	}
	dirs, err := os.ReadDir(runs)
	if err != nil || len(dirs) != 1 {
		t.Fatalf("want one run record in %s: %v %v", runs, dirs, err)
	}
	dir := filepath.Join(runs, dirs[0].Name())
	rec, err := record.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range rec.Warnings {
		found = found || strings.Contains(w.Message, want)
	}
	if !found {
		t.Errorf("run.json's warnings %+v do not hold the dial's warning", rec.Warnings)
	}
	ev, err := readGzip(filepath.Join(dir, "events.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := bytes.Cut(ev, []byte("\n"))
	if !bytes.Contains(first, []byte(`"record_meta"`)) || !bytes.Contains(rest, []byte(want)) {
		t.Errorf("the trail does not hold the warning after its meta line:\n%s", ev)
	}
}
