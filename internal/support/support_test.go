package support

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/redact"
	"github.com/provadev/prova/parse/all"
)

func TestCollectWriteReadReplay(t *testing.T) {
	ok := moduletest.NewFakeHost("n1")
	ok.Reply(`.`, moduletest.Reply{RC: 127, Stderr: "sh: 1: not found\n"})
	ok.Reply(`^ofed_info -s$`, moduletest.Reply{Stdout: "MLNX_OFED_LINUX-23.10-1.1.9.0:\n"})
	ok.Reply(`^uname -r$`, moduletest.Reply{Stdout: "6.1.0-hunter2\n"})
	ok.Reply(`mmfsadm test verbs conn$`, moduletest.Reply{Stdout: "garbage\n"})
	down := moduletest.NewFakeHost("n2")
	down.Unreachable()
	r := redact.New("hunter2")
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	b, err := Collect(context.Background(), []module.Host{down, ok}, Options{Version: "v9", Parsers: all.Registry(), Redact: r.String, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Manifest.Unreachable) != 1 || b.Manifest.Unreachable["n2"] == "" || b.Manifest.Hosts[0] != "n1" {
		t.Fatalf("manifest %+v", b.Manifest)
	}
	var buf bytes.Buffer
	if err := b.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte("hunter2")) {
		t.Fatal("the secret is in the bundle") // gzip of short text keeps literals
	}
	got, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	h := got.Hosts[0]
	if h.Name != "n1" || len(h.Results) != len(Probes) {
		t.Fatalf("host %s: %d results", h.Name, len(h.Results))
	}
	byID := map[string]Result{}
	for _, res := range h.Results {
		byID[res.Probe] = res
	}
	if u := byID["uname"]; !strings.Contains(u.Stdout, "(sensitive value)") || strings.Contains(u.Stdout, "hunter2") {
		t.Errorf("uname = %q", u.Stdout)
	}
	if o := byID["ofed_info"]; o.RC != 0 || !strings.Contains(string(o.Parsed), "23.10-1.1.9.0") {
		t.Errorf("ofed_info = %+v", o)
	}
	if c := byID["mmfsadm_verbs_conn"]; !strings.Contains(c.ParseError, "line 1") {
		t.Errorf("verbs conn = %+v", c)
	}
	if s := byID["ibstat"]; s.RC != 127 || s.ParseError != "" || s.Parsed != nil {
		t.Errorf("ibstat = %+v", s)
	}
	rs := Replay(got, all.Registry())
	outcomes := map[string]string{}
	for _, x := range rs {
		outcomes[x.Host+"/"+x.Probe] = x.Outcome
	}
	if outcomes["n1/ofed_info"] != ReplayOK || outcomes["n1/mmfsadm_verbs_conn"] != ReplayFails || outcomes["n1/ibstat"] != ReplayNotRun ||
		outcomes["n1/uname"] != ReplayRaw || outcomes["n2/"] != ReplayNotRun || !Failed(rs) {
		t.Errorf("outcomes %v", outcomes)
	}
}

func TestProbesNameKnownParsers(t *testing.T) {
	reg := all.Registry()
	seen := map[string]bool{}
	for _, p := range Probes {
		if seen[p.ID] {
			t.Errorf("duplicate probe %s", p.ID)
		}
		seen[p.ID] = true
		if p.Parser != "" {
			if _, ok := reg.Lookup(p.Parser); !ok {
				t.Errorf("probe %s names parser %q, which does not exist", p.ID, p.Parser)
			}
		}
		for _, w := range []string{"mmchconfig", "mmshutdown", "mmstartup", "connect", "disconnect", "rm ", ">", "tee"} {
			if strings.Contains(p.Command, w) {
				t.Errorf("probe %s runs %q: not read-only", p.ID, p.Command)
			}
		}
	}
}
