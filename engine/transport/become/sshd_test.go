package become_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/become"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshdtest"
)

func TestRealSudoOverSSH(t *testing.T) {
	requireSudo(t)
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	p := sshconn.NewPool(sshconn.Options{Home: t.TempDir(), SSHConfigFile: "none"})
	t.Cleanup(func() { p.Close() })
	h := p.Host(sshconn.Target{Name: "n0", Address: "127.0.0.1", Port: c.Port(0), User: c.User,
		IdentityFiles: []string{c.ClientKeyFile}, KnownHostsFiles: []string{c.KnownHostsFile(t)}})

	nobody := become.Wrap(h, become.Options{User: "nobody"})
	out, err := module.Capture(context.Background(), nobody, "id -un")
	if err != nil || out.RC != 0 || out.Stdout != "nobody\n" {
		t.Fatalf("id -un as nobody over ssh: %+v %v", out, err)
	}
	// nobody cannot write into a root-only directory: a clear failure.
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	err = nobody.Put(context.Background(), filepath.Join(dir, "f"), strings.NewReader("x"), 0o600)
	if err == nil || !strings.Contains(err.Error(), "as nobody") {
		t.Errorf("Put as nobody into a 0700 root directory: %v", err)
	}

	root := become.Wrap(h, become.Options{})
	f := filepath.Join(dir, "gpfs.conf")
	if err := root.Put(context.Background(), f, strings.NewReader("verbsPorts mlx5_0/1\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := root.Get(context.Background(), f, &b); err != nil || b.String() != "verbsPorts mlx5_0/1\n" {
		t.Fatalf("Get = %q, %v", b.String(), err)
	}
}
