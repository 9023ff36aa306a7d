package record

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/wire"
)

// slowHostLine is l encoded by encoding/json, HTML escaping off, with the
// encoder's newline.
func slowHostLine(t testing.TB, l any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkHostStep fails unless appendHostStep's line and result are
// encoding/json's of l and of its HostResult, and the line was appended
// after what b held.
func checkHostStep(t testing.TB, l *hostLine) {
	t.Helper()
	prefix := []byte("kept\n")
	line, result, err := appendHostStep(append(make([]byte, 0, 8), prefix...), l)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(line, prefix) {
		t.Fatalf("appendHostStep lost what the buffer held: %q", line)
	}
	if want := slowHostLine(t, l); !bytes.Equal(line[len(prefix):], want) {
		t.Errorf("appendHostStep's line:\n%q\nencoding/json:\n%q", line[len(prefix):], want)
	}
	want := slowHostLine(t, l.HostResult)
	if want = want[:len(want)-1]; !bytes.Equal(result, want) {
		t.Errorf("appendHostStep's result:\n%q\nencoding/json:\n%q", result, want)
	}
	if cap(result) != len(result) {
		t.Errorf("result held with %d bytes spare", cap(result)-len(result))
	}
}

func TestAppendHostStepIsEncodingJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		l    hostLine
	}{
		{"least", hostLine{Type: "host_finished", Time: "2026-12-01T10:00:00Z", Step: "shell.a", Host: "n1",
			HostResult: HostResult{Status: event.OK}}},
		{"usual shell step", hostLine{Type: "host_finished", Time: "2026-12-01T10:00:00.123456789Z", Step: "shell.s01", Host: "h001",
			HostResult: HostResult{Status: event.Changed, DurationS: 0.014236911,
				Result: map[string]any{"rc": float64(0), "changed": true, "cmd": "sh -c 'true'"}}}},
		{"every member", hostLine{Type: "host_finished", Time: "t", Step: "s", Host: "h",
			HostResult: HostResult{Status: event.Failed, Message: "exit 1: <&> \"quoted\" \u2028 \x01 \xff tab\t",
				DurationS: 1e-7, Severity: "error",
				Result: map[string]any{"z": nil, "a": []any{1.5, "x", false, nil, map[string]any{}}, "m": map[string]any{"k\n": 1e21},
					"empty": []any{}, "nilList": []any(nil), "big": 123456789012.0, "neg": -0.5},
				Raw:       map[string]string{"stdout": "raw/sha256/ab.gz", "evidence \"x\"": "raw/sha256/cd.gz"},
				Truncated: []string{"stdout", "ünï"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := appendHostResultMembers(nil, &tc.l.HostResult); !ok {
				t.Fatal("the members were left to encoding/json")
			}
			checkHostStep(t, &tc.l)
		})
	}
}

// What the hand-written members leave to encoding/json (checks,
// diagnostics, an int) is encoded by it, in both forms; a number JSON
// cannot hold is an error.
// The Writer's lines carry their time as a time.Time, written as the
// string encoding/json would write for its RFC 3339 form.
func TestAppendHostStepWritesItsTime(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 120000000, time.UTC)
	for _, hr := range []HostResult{{Status: event.OK, Result: map[string]any{"rc": 0.0}}, {Status: event.Failed, Checks: []event.Check{{Name: "c"}}}} {
		l := hostLine{Type: "host_finished", Step: "s", Host: "h", HostResult: hr}
		withString := l
		withString.Time = at.Format(time.RFC3339Nano)
		l.at = at
		got, _, err := appendHostStep(nil, &l)
		if err != nil {
			t.Fatal(err)
		}
		if want := slowHostLine(t, &withString); !bytes.Equal(got, want) {
			t.Errorf("line with its time:\n%s\nencoding/json of the string:\n%s", got, want)
		}
	}
}

func TestAppendHostStepLeavesTheRestToEncodingJSON(t *testing.T) {
	base := func() hostLine {
		return hostLine{Type: "host_finished", Time: "t", Step: "s", Host: "h", HostResult: HostResult{Status: event.OK}}
	}
	checks, diags, nan, odd := base(), base(), base(), base()
	checks.Checks = []event.Check{{Name: "c <&>", Measured: "1"}}
	checks.Message, checks.Severity = "m", "error"
	diags.Diagnostics = []wire.Diagnostic{{Summary: "d"}}
	nan.Result = map[string]any{"x": math.NaN()}
	odd.Result = map[string]any{"n": 3} // an int: not a shape JSON decodes into
	for name, l := range map[string]hostLine{"checks": checks, "diagnostics": diags, "NaN": nan, "int": odd} {
		if _, ok := appendHostResultMembers(nil, &l.HostResult); ok {
			t.Errorf("%s: the members handled a result they should leave to encoding/json", name)
		}
		if name == "NaN" {
			b := []byte("kept")
			line, result, err := appendHostStep(b, &l)
			if err == nil || result != nil || string(line) != "kept" {
				t.Errorf("NaN: line %q, result %q, error %v: want an error and the buffer as it was", line, result, err)
			}
			continue
		}
		t.Run(name, func(t *testing.T) { checkHostStep(t, &l) })
	}
}

func FuzzAppendHostStep(f *testing.F) {
	f.Add("shell.s01", "h001", "ok", "", "stdout", 0.25, "cmd", "sh -c true", true)
	f.Add("s\u2028", "h\xff", "failed", "exit <1>", "e\"v", -1e-9, "k\\", "\x00\x1f", false)
	f.Fuzz(func(t *testing.T, step, host, status, msg, raw string, dur float64, key, val string, flag bool) {
		l := hostLine{Type: "host_finished", Time: "t", Step: step, Host: host, HostResult: HostResult{
			Status: event.Status(status), Message: msg, DurationS: dur,
			Result:    map[string]any{key: val, "flag": flag, "n": dur, "list": []any{val, dur}},
			Raw:       map[string]string{raw: val},
			Truncated: []string{raw},
		}}
		if math.IsNaN(dur) || math.IsInf(dur, 0) {
			if _, _, err := appendHostStep(nil, &l); err == nil {
				t.Fatal("a number JSON cannot hold was encoded")
			}
			return
		}
		checkHostStep(t, &l)
	})
}
