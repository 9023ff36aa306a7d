package support

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/parse/all"
)

// The recorder files each host's commands under the step planned next on
// that host, parses the commands that are probes, redacts, refuses writes
// and keeps reads; a bundle with it round-trips.
func TestRecorder(t *testing.T) {
	fake := moduletest.NewFakeHost("n1")
	fake.Reply(`^ofed_info -s$`, moduletest.Reply{Stdout: "MLNX_OFED_LINUX-23.10-1.1.9.0:\n"})
	fake.Reply(`^echo `, moduletest.Reply{Stdout: "token hunter2\n"})
	fake.SetFile("/etc/x.conf", []byte("a = 1\n"), 0o644)
	rec := NewRecorder(all.Registry(), redact.New("hunter2").String)
	h := rec.Wrap(fake)
	ctx := context.Background()
	if _, err := module.Capture(ctx, h, "ofed_info -s"); err != nil {
		t.Fatal(err)
	}
	rec.Observe(event.PlannedHost{Step: "ofed.check", Host: "n1", Action: event.PlanNoChange})
	if _, err := h.Run(ctx, "echo hunter2", nil, nil, nil); err != nil { // nil writers: kept all the same
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := h.Get(ctx, "/etc/x.conf", &got); err != nil || got.String() != "a = 1\n" {
		t.Fatalf("get: %q %v", got.String(), err)
	}
	if err := h.Put(ctx, "/etc/x.conf", strings.NewReader("b = 2\n"), 0o644); !errors.Is(err, ErrNoWrites) {
		t.Fatalf("put: %v", err)
	}
	if f := fake.Files()["/etc/x.conf"]; string(f.Data) != "a = 1\n" {
		t.Fatalf("the file changed: %q", f.Data)
	}
	rec.Observe(event.PlannedHost{Step: "shell.show", Host: "n1", Action: event.PlanNoChange, Summary: "read hunter2"})
	b := &Bundle{Manifest: Manifest{Format: FormatVersion, Hosts: []string{"n1"}}, Hosts: []Host{{Name: "n1"}}}
	b.Merge(rec, "rb.hcl", "sha256:x")
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	hh := back.Hosts[0]
	if back.Manifest.Runbook != "rb.hcl" || len(hh.Results) != 3 || len(hh.Steps) != 2 {
		t.Fatalf("%+v", back)
	}
	r0, r1, r2 := hh.Results[0], hh.Results[1], hh.Results[2]
	if r0.Probe != "ofed.check-1" || r0.Step != "ofed.check" || r0.Parser != "ofed-info" || r0.Parsed == nil {
		t.Errorf("probe command: %+v", r0)
	}
	if r1.Probe != "shell.show-1" || r1.Step != "shell.show" || r1.Parser != "" || strings.Contains(r1.Stdout+r1.Command, "hunter2") {
		t.Errorf("own command: %+v", r1)
	}
	if r2.Command != "get /etc/x.conf" || r2.Stdout != "a = 1\n" || r2.Step != "shell.show" {
		t.Errorf("get: %+v", r2)
	}
	if s := hh.Steps[1]; s.Step != "shell.show" || strings.Join(s.Commands, ",") != "shell.show-1,shell.show-2" || strings.Contains(s.Summary, "hunter2") {
		t.Errorf("step outcome: %+v", s)
	}
}
