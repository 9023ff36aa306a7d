package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestStartProfilesWritesWhatIsAsked(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{
		envCPUProfile: filepath.Join(dir, "cpu.out"),
		envMemProfile: filepath.Join(dir, "mem.out"),
		envTrace:      filepath.Join(dir, "trace.out"),
	}
	stop, err := startProfiles(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	for name, path := range env {
		if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %s not written (%v)", name, path, err)
		}
	}
}

func TestStartProfilesNothingWhenUnset(t *testing.T) {
	stop, err := startProfiles(func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
}

func TestStartProfilesBadPathIsAnError(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "missing", "cpu.out")
	stop, err := startProfiles(func(k string) string {
		if k == envCPUProfile {
			return bad
		}
		return ""
	})
	if err == nil || !strings.Contains(err.Error(), envCPUProfile) {
		t.Fatalf("err %v: want an error naming %s", err, envCPUProfile)
	}
	_ = stop()
}

// TestMemStatsKeepsThePeak: the written sample is the largest resident
// set seen, with every runtime figure named; a bad path is an error that
// names the variable.
func TestMemStatsKeepsThePeak(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mem.txt")
	stop, err := startProfiles(func(k string) string {
		if k == envMemStats {
			return path
		}
		return ""
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("line %q is not \"name value\"", line)
		}
		got[k] = v
	}
	for _, k := range append([]string{"rss:bytes", "at:seconds"}, memClasses...) {
		if v, ok := got[k]; !ok || v == "unsupported" {
			t.Errorf("%s: %q (present %v)", k, v, ok)
		}
	}
	if got["rss:bytes"] == "0" {
		t.Error("rss:bytes is 0")
	}

	p := &memPeak{statm: filepath.Join(t.TempDir(), "statm"), pageSize: 4096}
	for _, c := range []struct{ statm, rss string }{{"100 20 3", "81920"}, {"100 10 3", "81920"}, {"100 30 3", "122880"}} {
		if err := os.WriteFile(p.statm, []byte(c.statm), 0o644); err != nil {
			t.Fatal(err)
		}
		p.sample(0)
		if !strings.Contains(string(p.report()), "rss:bytes "+c.rss+"\n") {
			t.Errorf("after statm %q: want the peak %s in\n%s", c.statm, c.rss, p.report())
		}
	}

	stop, err = startMemStats(filepath.Join(t.TempDir(), "missing", "x"))
	if err != nil {
		t.Fatalf("the output path is only written at the end: %v", err)
	}
	if err := stop(); err == nil || !strings.Contains(err.Error(), envMemStats) {
		t.Errorf("an unwritable path: err %v, want one naming %s", err, envMemStats)
	}
	bad := &memPeak{statm: filepath.Join(t.TempDir(), "none")}
	if _, err := bad.resident(); err == nil {
		t.Error("an unreadable statm must be an error")
	}
}

func TestHeapSamplingOnlyForAHeapProfile(t *testing.T) {
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 512 * 1024
	setHeapSampling(func(k string) string {
		if k == envMemProfile {
			return "mem.out"
		}
		return ""
	})
	if runtime.MemProfileRate != 512*1024 {
		t.Fatalf("PROVA_MEMPROFILE set: MemProfileRate %d, want the default kept", runtime.MemProfileRate)
	}
	setHeapSampling(func(string) string { return "" })
	if runtime.MemProfileRate != 0 {
		t.Fatalf("PROVA_MEMPROFILE unset: MemProfileRate %d, want 0", runtime.MemProfileRate)
	}
}
