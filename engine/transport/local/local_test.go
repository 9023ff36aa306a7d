package local_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/provadev/prova/engine/transport/local"
)

func TestRun(t *testing.T) {
	h := local.New("")
	var out, errb bytes.Buffer
	rc, err := h.Run(context.Background(), "cat; echo err >&2; exit 4", strings.NewReader("in\n"), &out, &errb)
	if rc != 4 || err != nil || out.String() != "in\n" || errb.String() != "err\n" {
		t.Fatalf("rc=%d err=%v out=%q err=%q", rc, err, out.String(), errb.String())
	}
	if rc, err := h.Run(context.Background(), "kill -KILL $$", nil, nil, nil); rc != 137 || err != nil {
		t.Errorf("signal: rc=%d err=%v, want 137", rc, err)
	}
	if h.Name() != "localhost" {
		t.Errorf("Name = %q", h.Name())
	}
}

func gone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

func TestCancelKillsProcessGroup(t *testing.T) {
	h := &local.Host{KillGrace: 200 * time.Millisecond}
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		// the shell ignores TERM: only the group KILL after the grace ends it.
		_, err := h.Run(ctx, "trap '' TERM; sleep 60 & echo $! > "+pidFile+"; wait", nil, nil, nil)
		done <- err
	}()
	pid := 0
	for deadline := time.Now().Add(5 * time.Second); pid == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("command did not start")
		}
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	for deadline := time.Now().Add(5 * time.Second); !gone(pid); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("child %d survived", pid)
		}
	}
}

func TestPutGet(t *testing.T) {
	h := local.New("me")
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := h.Put(context.Background(), p, strings.NewReader("data"), 0o600); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("stat: %v %v", st, err)
	}
	var b bytes.Buffer
	if err := h.Get(context.Background(), p, &b); err != nil || b.String() != "data" {
		t.Fatalf("Get = %q, %v", b.String(), err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("leftovers: %v", ents)
	}
	if err := h.Get(context.Background(), filepath.Join(dir, "missing"), &b); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
