package become_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/become"
	"github.com/provadev/prova/engine/transport/local"
)

// recorder is a Host that records commands and runs nothing.
type recorder struct{ cmds []string }

func (r *recorder) Name() string { return "rec" }
func (r *recorder) Run(_ context.Context, cmd string, _ io.Reader, _, _ io.Writer) (int, error) {
	r.cmds = append(r.cmds, cmd)
	return 0, nil
}
func (r *recorder) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (r *recorder) Get(context.Context, string, io.Writer) error              { return nil }

func TestSudoNCommandLine(t *testing.T) {
	var r recorder
	h := become.Wrap(&r, become.Options{User: "gpfs admin"})
	if _, err := h.Run(context.Background(), "echo 'x' $HOME", nil, nil, nil); err != nil {
		t.Fatal(err)
	}
	want := `sudo -n -u 'gpfs admin' -- sh -c 'echo '"'"'x'"'"' $HOME'`
	if len(r.cmds) != 1 || r.cmds[0] != want {
		t.Errorf("sent %q, want %q", r.cmds, want)
	}
	if h.Name() != "rec" {
		t.Errorf("Name = %q", h.Name())
	}
}

// fakeSudoHost runs commands locally with testdata/sudo first in PATH.
func fakeSudoHost(t *testing.T, env ...string) *local.Host {
	dir, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	return &local.Host{Env: append([]string{"PATH=" + dir + ":/usr/bin:/bin"}, env...)}
}

func password(p string, calls *atomic.Int32) func() ([]byte, error) {
	return func() ([]byte, error) { calls.Add(1); return []byte(p), nil }
}

func TestPasswordWrittenOnPromptAndHidden(t *testing.T) {
	var calls atomic.Int32
	h := become.Wrap(fakeSudoHost(t, "FAKE_SUDO_PASSWORD=s3cret"), become.Options{Password: password("s3cret", &calls)})
	var out, errb bytes.Buffer
	rc, err := h.Run(context.Background(), "cat; echo as $FAKE_SUDO_USER; echo warn >&2", strings.NewReader("payload\n"), &out, &errb)
	if rc != 0 || err != nil {
		t.Fatalf("rc=%d err=%v stderr=%q", rc, err, errb.String())
	}
	if out.String() != "payload\nas root\n" {
		t.Errorf("stdout %q", out.String())
	}
	if errb.String() != "warn\n" {
		t.Errorf("stderr %q: prompt or marker leaked", errb.String())
	}
	if calls.Load() != 1 {
		t.Errorf("password asked %d times", calls.Load())
	}
}

func TestWrongPasswordFailsOnce(t *testing.T) {
	var calls atomic.Int32
	h := become.Wrap(fakeSudoHost(t, "FAKE_SUDO_PASSWORD=right"), become.Options{Password: password("wrong", &calls)})
	var errb bytes.Buffer
	rc, err := h.Run(context.Background(), "echo never", nil, nil, &errb)
	if rc == 0 || err != nil {
		t.Fatalf("rc=%d err=%v, want a failing status", rc, err)
	}
	if !strings.Contains(errb.String(), "Sorry, try again.") || strings.Contains(errb.String(), "prova-sudo") {
		t.Errorf("stderr %q", errb.String())
	}
	if calls.Load() != 1 {
		t.Errorf("password asked %d times, want 1", calls.Load())
	}
}

func TestNoPromptNoPassword(t *testing.T) {
	var calls atomic.Int32
	h := become.Wrap(fakeSudoHost(t, "FAKE_SUDO_NOPASSWD=1"), become.Options{User: "gpfs", Password: password("x", &calls)})
	var out bytes.Buffer
	if rc, err := h.Run(context.Background(), "cat; echo $FAKE_SUDO_USER", strings.NewReader("in\n"), &out, nil); rc != 0 || err != nil {
		t.Fatalf("rc=%d err=%v", rc, err)
	}
	if out.String() != "in\ngpfs\n" || calls.Load() != 0 {
		t.Errorf("stdout %q, password asked %d times", out.String(), calls.Load())
	}
}

func TestSudoNWithoutPasswordFails(t *testing.T) {
	h := become.Wrap(fakeSudoHost(t, "FAKE_SUDO_PASSWORD=x"), become.Options{})
	var errb bytes.Buffer
	rc, err := h.Run(context.Background(), "true", nil, nil, &errb)
	if rc != 1 || err != nil || !strings.Contains(errb.String(), "password is required") {
		t.Fatalf("rc=%d err=%v stderr=%q", rc, err, errb.String())
	}
}

func TestPasswordSourceError(t *testing.T) {
	h := become.Wrap(fakeSudoHost(t, "FAKE_SUDO_PASSWORD=x"), become.Options{
		Password: func() ([]byte, error) { return nil, errors.New("no tty") }})
	_, err := h.Run(context.Background(), "true", nil, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "sudo password: no tty") {
		t.Fatalf("err = %v", err)
	}
}

func TestPutGetThroughSudo(t *testing.T) {
	var calls atomic.Int32
	h := become.Wrap(fakeSudoHost(t, "FAKE_SUDO_PASSWORD=pw"), become.Options{Password: password("pw", &calls)})
	p := filepath.Join(t.TempDir(), "gpfs.conf")
	if err := h.Put(context.Background(), p, strings.NewReader("verbsRdma enable\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("stat: %v %v", st, err)
	}
	var b bytes.Buffer
	if err := h.Get(context.Background(), p, &b); err != nil || b.String() != "verbsRdma enable\n" {
		t.Fatalf("Get = %q, %v", b.String(), err)
	}
	if err := h.Get(context.Background(), p+".missing", &b); err == nil || module.IsUnreachable(err) {
		t.Errorf("Get missing: %v", err)
	}
}

// requireSudo skips without sudo, except under CI=true.
func requireSudo(t *testing.T) {
	if _, err := exec.LookPath("sudo"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("sudo not installed (CI=true: install sudo)")
		}
		t.Skip("sudo not installed")
	}
	if os.Geteuid() != 0 {
		t.Skip("real sudo test needs root (passwordless sudo to nobody)")
	}
}

func TestRealSudoLocal(t *testing.T) {
	requireSudo(t)
	h := become.Wrap(local.New(""), become.Options{User: "nobody"})
	out, err := module.Capture(context.Background(), h, "id -un")
	if err != nil || out.RC != 0 || out.Stdout != "nobody\n" {
		t.Fatalf("id -un as nobody: %+v %v", out, err)
	}
}
