package waiver

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/internal/evidence/record"
)

var now = time.Date(2026, 11, 30, 2, 15, 0, 0, time.UTC)

func load(t *testing.T, name string) *Set {
	t.Helper()
	set, diags := Load(filepath.Join("testdata", name))
	if diags.HasErrors() {
		t.Fatalf("Load(%s): %v", name, diags)
	}
	return set
}

func TestLoad(t *testing.T) {
	set := load(t, "waivers.hcl")
	if len(set.Waivers) != 3 {
		t.Fatalf("got %d waivers, want 3", len(set.Waivers))
	}
	w := set.Waivers[0]
	if w.Name != "gpfs05-ofed" || w.Assertion != "assert.peers" || !cmp.Equal(w.Hosts, []string{"gpfs05"}) ||
		w.Justification != "OFED upgrade scheduled CHG-1234" {
		t.Errorf("first waiver = %+v", w)
	}
	// A plain date holds through that day (UTC).
	if !w.Live(time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC)) || w.Live(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date expiry: expires %v", w.Expires)
	}
	if w.DeclRange.Start.Line != 2 {
		t.Errorf("DeclRange = %v", w.DeclRange)
	}
	if got := set.Waivers[1].Expires; !got.Equal(time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date-time expiry = %v", got)
	}
	if len(set.Waivers[2].Hosts) != 0 || !set.Waivers[2].matchesHost("anything") {
		t.Error("a waiver without hosts must match every host")
	}
}

func TestLoadDiagnostics(t *testing.T) {
	_, diags := Load(filepath.Join("testdata", "bad.hcl"))
	got := map[int]string{}
	for _, d := range diags {
		if d.Subject == nil {
			t.Errorf("diagnostic without position: %s", d.Summary)
			continue
		}
		if d.Subject.Filename != filepath.Join("testdata", "bad.hcl") {
			t.Errorf("diagnostic in file %q", d.Subject.Filename)
		}
		got[d.Subject.Start.Line] = d.Summary
	}
	want := map[int]string{
		4:  "Invalid expiry date",
		9:  "Empty justification",
		17: "Unsupported argument",
		21: "Invalid glob",
		22: "Invalid value",
		27: "Duplicate waiver",
		33: "Missing required argument",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics by line (-want +got):\n%s\nall: %v", diff, diags)
	}
	for _, d := range diags {
		if d.Summary == "Invalid expiry date" && !strings.Contains(d.Detail, "31/12/2026") {
			t.Errorf("expiry diagnostic does not quote the value: %s", d.Detail)
		}
	}
	if _, diags := Load(filepath.Join("testdata", "missing.hcl")); !diags.HasErrors() {
		t.Error("Load of a missing file gave no error")
	}
	if _, diags := Parse([]byte("waiver {"), "x.hcl"); !diags.HasErrors() {
		t.Error("syntax error not reported")
	}
}

func TestParseExpiry(t *testing.T) {
	for _, s := range []string{"", "2026-13-01", "tomorrow", "2026-12-31 10:00"} {
		if _, err := ParseExpiry(s); err == nil {
			t.Errorf("ParseExpiry(%q) accepted", s)
		}
	}
}

func assertions() []record.Assertion {
	return []record.Assertion{
		{Step: "assert.peers", Host: "gpfs05", Name: "assert.peers", Verdict: "fail", Message: "2 of 4 peers"},
		{Step: "assert.peers", Host: "gpfs06", Name: "assert.peers", Verdict: "fail", Message: "3 of 4 peers"},
		{Step: "assert.peers", Host: "gpfs01", Name: "assert.peers", Verdict: "pass"},
		{Step: "compare.rdma", Host: "nsd01", Name: "latency", Verdict: "fail", Measured: "0.6"},
		{Step: "compare.rdma", Host: "nsd01", Name: "cpu", Verdict: "pass"},
	}
}

func TestApply(t *testing.T) {
	set := load(t, "waivers.hcl")
	res := set.Apply(assertions(), now)
	var verdicts []string
	for _, o := range res.Outcomes {
		verdicts = append(verdicts, o.Host+" "+o.Name+" "+o.Verdict)
	}
	want := []string{
		"gpfs05 assert.peers waived", // live waiver, matching host
		"gpfs06 assert.peers fail",   // host not named
		"gpfs01 assert.peers pass",   // passing assertions are never waived
		"nsd01 latency fail",         // the waiver expired on 2026-11-01
		"nsd01 cpu pass",
	}
	if diff := cmp.Diff(want, verdicts); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if o := res.Outcomes[0]; o.Waiver == nil || o.Waiver.Name != "gpfs05-ofed" || o.Original != "fail" {
		t.Errorf("waived outcome = %+v", o)
	}
	if o := res.Outcomes[3]; o.Expired == nil || o.Expired.Name != "nsd-latency" || o.Waiver != nil {
		t.Errorf("expired outcome = %+v", o)
	} else if got := o.Expired.ExpiredOn(); got != "2026-11-01T00:00:00Z" {
		t.Errorf("ExpiredOn = %s", got)
	}
	if len(res.Expired) != 1 || res.Expired[0].Name != "nsd-latency" {
		t.Errorf("Expired = %v", names(res.Expired))
	}
	// old-cpu names a check that passed: unused (and expired).
	if got := names(res.Unused); !cmp.Equal(got, []string{"old-cpu"}) {
		t.Errorf("Unused = %v", got)
	}
	if got := set.Waivers[2].ExpiredOn(); got != "2025-01-31" {
		t.Errorf("ExpiredOn of a date = %s", got)
	}
}

func TestApplyBeforeExpiry(t *testing.T) {
	set := load(t, "waivers.hcl")
	res := set.Apply(assertions(), time.Date(2026, 10, 31, 23, 0, 0, 0, time.UTC))
	if o := res.Outcomes[3]; o.Verdict != "waived" || o.Waiver.Justification != "switch firmware CHG-2001" {
		t.Errorf("latency outcome before expiry = %+v", o)
	}
	if len(res.Expired) != 0 {
		t.Errorf("Expired = %v", names(res.Expired))
	}
}

func TestApplyNilSet(t *testing.T) {
	var set *Set
	res := set.Apply(assertions(), now)
	if len(res.Outcomes) != 5 || res.Outcomes[0].Verdict != "fail" || res.Unused != nil {
		t.Errorf("nil set changed something: %+v", res)
	}
}

func TestMatches(t *testing.T) {
	w := &Waiver{Assertion: "compare.*/lat*", Hosts: []string{"gpfs0[1-3]", "nsd*", "x[!a-c]"}}
	for _, c := range []struct {
		step, check, host string
		want              bool
	}{
		{"compare.rdma", "latency", "gpfs02", true},
		{"compare.rdma", "latency", "nsd17", true},
		{"compare.rdma", "latency", "gpfs04", false},
		{"compare.rdma", "cpu", "gpfs01", false},
		{"assert.lat", "latency", "gpfs01", false},
		{"compare.rdma_vs_tcp", "latency: RDMA/TCP ratio", "gpfs01", true}, // "*" crosses "/"
		{"compare.rdma_vs_tcp", "latency", "xd", true},
		{"compare.rdma_vs_tcp", "latency", "xb", false},
		{"compare.rdma_vs_tcp", "latency", "gpfs011", false}, // anchored
	} {
		if got := w.Matches(c.step, c.check, c.host); got != c.want {
			t.Errorf("Matches(%s, %s, %s) = %v", c.step, c.check, c.host, got)
		}
	}
}

func names(ws []*Waiver) []string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Name)
	}
	return out
}

func TestCompileGlob(t *testing.T) {
	for glob, cases := range map[string]map[string]bool{
		"a.b*":        {"a.b": true, "a.bc/d": true, "axb": false},
		"n?[0-9]":     {"n17": true, "n1x": false, "n123": false},
		`lit\*`:       {"lit*": true, "litx": false},
		"(x)+":        {"(x)+": true, "xx": false},
		"[!ab]z":      {"cz": true, "az": false},
		"peers [a-c]": {"peers b": true},
	} {
		re, err := compileGlob(glob)
		if err != nil {
			t.Errorf("compileGlob(%q): %v", glob, err)
			continue
		}
		for s, want := range cases {
			if got := re.MatchString(s); got != want {
				t.Errorf("%q matches %q = %v", glob, s, got)
			}
		}
	}
	for _, bad := range []string{"[", "a[", "[]", "[!]", `x\`} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("compileGlob(%q) accepted", bad)
		}
	}
}
