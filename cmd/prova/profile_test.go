package main

import (
	"os"
	"path/filepath"
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
