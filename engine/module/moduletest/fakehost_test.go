package moduletest

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module"
)

func TestFakeHostReplies(t *testing.T) {
	h := NewFakeHost("n1")
	h.Reply(`^echo `, Reply{Stdout: "first\n"})
	h.Reply(`^echo hi$`, Reply{Stdout: "hi\n", Stderr: "warn\n", RC: 3})
	h.Handle(`^cat$`, func(cmd string, stdin []byte) Reply { return Reply{Stdout: string(stdin)} })

	var out, errb bytes.Buffer
	rc, err := h.Run(context.Background(), "echo hi", nil, &out, &errb)
	if err != nil || rc != 3 || out.String() != "hi\n" || errb.String() != "warn\n" {
		t.Fatalf("later handler did not take precedence: rc=%d err=%v out=%q err=%q", rc, err, out.String(), errb.String())
	}
	out.Reset()
	if rc, _ := h.Run(context.Background(), "echo other", nil, &out, &errb); rc != 0 || out.String() != "first\n" {
		t.Fatalf("earlier handler not used: rc=%d out=%q", rc, out.String())
	}
	out.Reset()
	if _, err := h.Run(context.Background(), "cat", strings.NewReader("data"), &out, &errb); err != nil || out.String() != "data" {
		t.Fatalf("stdin not passed to the handler: %q %v", out.String(), err)
	}
	errb.Reset()
	rc, err = h.Run(context.Background(), "mmlscluster", nil, &out, &errb)
	if err != nil || rc != 127 || !strings.Contains(errb.String(), "command not found") {
		t.Fatalf("unmatched command: rc=%d err=%v stderr=%q", rc, err, errb.String())
	}
	want := []string{"echo hi", "echo other", "cat", "mmlscluster"}
	if got := h.Commands(); !slices.Equal(got, want) {
		t.Fatalf("Commands() = %q, want %q", got, want)
	}
}

func TestFakeHostReplyError(t *testing.T) {
	h := NewFakeHost("n1")
	boom := errors.New("boom")
	h.Reply(`.`, Reply{RC: -1, Err: boom})
	if _, err := h.Run(context.Background(), "x", nil, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, boom) {
		t.Fatalf("Reply.Err not returned: %v", err)
	}
}

func TestFakeHostFiles(t *testing.T) {
	ctx := context.Background()
	h := NewFakeHost("n1")
	if err := h.Put(ctx, "/etc/a", strings.NewReader("A"), 0o600); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := h.Get(ctx, "/etc/a", &got); err != nil || got.String() != "A" {
		t.Fatalf("Get after Put = %q, %v", got.String(), err)
	}
	if f, ok := h.File("/etc/a"); !ok || f.Mode != 0o600 {
		t.Fatalf("File = %+v, %t", f, ok)
	}
	if err := h.Get(ctx, "/none", &got); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Get of a missing file: %v, want fs.ErrNotExist", err)
	}
	files := h.Files()
	files["/etc/a"].Data[0] = 'X'
	if f, _ := h.File("/etc/a"); string(f.Data) != "A" {
		t.Fatal("Files() returned the host's own buffers")
	}
	h.RemoveFile("/etc/a")
	if _, ok := h.File("/etc/a"); ok {
		t.Fatal("RemoveFile left the file")
	}
	want := []string{"put /etc/a 0600", "get /etc/a", "get /none"}
	if got := h.Commands(); !slices.Equal(got, want) {
		t.Fatalf("Commands() = %q, want %q", got, want)
	}
}

func TestFakeHostUnreachable(t *testing.T) {
	ctx := context.Background()
	h := NewFakeHost("n1")
	h.Reply(`.`, Reply{})
	h.Unreachable()
	_, err := h.Run(ctx, "true", nil, &bytes.Buffer{}, &bytes.Buffer{})
	errPut := h.Put(ctx, "/x", strings.NewReader(""), 0o644)
	errGet := h.Get(ctx, "/x", &bytes.Buffer{})
	for _, e := range []error{err, errPut, errGet} {
		if !module.IsUnreachable(e) {
			t.Fatalf("error %v is not unreachable", e)
		}
	}
	h.Reachable()
	if _, err := h.Run(ctx, "true", nil, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatalf("Reachable: %v", err)
	}
	if n := len(h.Commands()); n != 4 {
		t.Fatalf("recorded %d operations, want 4", n)
	}
}

func TestFakeHostCancelled(t *testing.T) {
	h := NewFakeHost("n1")
	h.Reply(`.`, Reply{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Run(ctx, "true", nil, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Run with a cancelled context: %v", err)
	}
}

func TestFakeHostHang(t *testing.T) {
	h := NewFakeHost("n1")
	started := h.Hang(`^sleep`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := h.Run(ctx, "sleep 100", nil, &bytes.Buffer{}, &bytes.Buffer{})
		done <- err
	}()
	if cmd := <-started; cmd != "sleep 100" {
		t.Fatalf("hang reported %q", cmd)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("hanging command returned %v, want context.Canceled", err)
	}
}

func TestFakeHostKeepsSpecialBits(t *testing.T) {
	h := NewFakeHost("n1")
	if err := h.Put(context.Background(), "/bin/x", strings.NewReader(""), 0o755|fs.ModeSetuid|fs.ModeDir); err != nil {
		t.Fatal(err)
	}
	f, _ := h.File("/bin/x")
	if Octal(f.Mode) != 0o4755 {
		t.Fatalf("mode = %o, want 4755", Octal(f.Mode))
	}
	if got := h.Commands(); got[0] != "put /bin/x 4755" {
		t.Fatalf("recorded %q", got[0])
	}
}
