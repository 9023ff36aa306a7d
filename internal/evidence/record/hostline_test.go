package record

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/wire"
)

// slowHostLine is what writeLine writes for l: encoding/json, HTML
// escaping off.
func slowHostLine(t testing.TB, l *hostLine) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestAppendHostLineIsEncodingJSON(t *testing.T) {
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
			got, ok := appendHostLine(nil, &tc.l)
			if !ok {
				t.Fatal("appendHostLine did not handle the line")
			}
			if want := slowHostLine(t, &tc.l); !bytes.Equal(got, want) {
				t.Errorf("appendHostLine:\n%s\nencoding/json:\n%s", got, want)
			}
		})
	}
}

func TestAppendHostLineLeavesTheRestToEncodingJSON(t *testing.T) {
	base := func() hostLine {
		return hostLine{Type: "host_finished", Time: "t", Step: "s", Host: "h", HostResult: HostResult{Status: event.OK}}
	}
	checks, diags, nan, odd := base(), base(), base(), base()
	checks.Checks = []event.Check{{Name: "c"}}
	diags.Diagnostics = []wire.Diagnostic{{Summary: "d"}}
	nan.Result = map[string]any{"x": math.NaN()}
	odd.Result = map[string]any{"n": 3} // an int: not a shape JSON decodes into
	for name, l := range map[string]hostLine{"checks": checks, "diagnostics": diags, "NaN": nan, "int": odd} {
		if _, ok := appendHostLine(nil, &l); ok {
			t.Errorf("%s: appendHostLine handled a line it should leave to encoding/json", name)
		}
	}
}

func FuzzAppendHostLine(f *testing.F) {
	f.Add("shell.s01", "h001", "ok", "", "stdout", 0.25, "cmd", "sh -c true", true)
	f.Add("s\u2028", "h\xff", "failed", "exit <1>", "e\"v", -1e-9, "k\\", "\x00\x1f", false)
	f.Fuzz(func(t *testing.T, step, host, status, msg, raw string, dur float64, key, val string, flag bool) {
		l := hostLine{Type: "host_finished", Time: "t", Step: step, Host: host, HostResult: HostResult{
			Status: event.Status(status), Message: msg, DurationS: dur,
			Result:    map[string]any{key: val, "flag": flag, "n": dur, "list": []any{val, dur}},
			Raw:       map[string]string{raw: val},
			Truncated: []string{raw},
		}}
		got, ok := appendHostLine(nil, &l)
		if math.IsNaN(dur) || math.IsInf(dur, 0) {
			if ok {
				t.Fatal("a number JSON cannot hold was encoded")
			}
			return
		}
		if !ok {
			t.Fatal("appendHostLine did not handle the line")
		}
		if want := slowHostLine(t, &l); !bytes.Equal(got, want) {
			t.Fatalf("appendHostLine:\n%q\nencoding/json:\n%q", got, want)
		}
	})
}
