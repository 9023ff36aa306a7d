package sshconn_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshdtest"
)

func TestSSHConfigFile(t *testing.T) {
	c := sshdtest.Start(t, 2, sshdtest.Options{})
	home := t.TempDir()
	sshDir := filepath.Join(home, ".ssh")
	os.MkdirAll(filepath.Join(sshDir, "conf.d"), 0o700)
	key, _ := os.ReadFile(c.ClientKeyFile)
	writeFile(t, filepath.Join(sshDir, "id_lab"), string(key))
	kh, _ := os.ReadFile(c.KnownHostsFile(t))
	writeFile(t, filepath.Join(sshDir, "lab_known_hosts"), string(kh))
	writeFile(t, filepath.Join(sshDir, "config"), fmt.Sprintf(`
# Include is relative to ~/.ssh, and may sit inside a Host block
Host web* !web9
    User %s
    Include conf.d/*.conf
Match exec "false"
    Port 1
Host *
    Port 2
    IdentityFile ~/.ssh/id_lab
    UserKnownHostsFile ~/.ssh/lab_known_hosts
    IdentitiesOnly yes
`, c.User))
	writeFile(t, filepath.Join(sshDir, "conf.d", "web.conf"), fmt.Sprintf(`
Host web1
    HostName 127.0.0.1
    Port=%d
`, c.Port(0)))

	var w warnings
	p := newPool(t, sshconn.Options{Home: home, SSHConfigFile: filepath.Join(sshDir, "config"), Warn: w.add})
	// Never let a failed lookup reach DNS: check the resolution first.
	if r, err := p.Resolve(sshconn.Target{Name: "web1"}); err != nil || r.Address != "127.0.0.1" || r.Port != c.Port(0) {
		t.Fatalf("Resolve(web1) = %+v, %v", r, err)
	}
	out := run(t, p.Host(sshconn.Target{Name: "web1"}), "echo ok")
	if out.Stdout != "ok\n" {
		t.Errorf("stdout %q", out.Stdout)
	}
	if w.all() != "" {
		t.Errorf("warnings: %q", w.all())
	}
	// A port set on the target wins over ssh_config.
	r, err := p.Resolve(sshconn.Target{Name: "web1", Port: c.Port(1)})
	if err != nil || r.Port != c.Port(1) || r.Address != "127.0.0.1" || r.User != c.User {
		t.Fatalf("Resolve = %+v, %v", r, err)
	}
	run(t, p.Host(sshconn.Target{Name: "web1-other", Address: "web1", Port: c.Port(1)}), "true")
}

func TestProxyJumpChain(t *testing.T) {
	c := sshdtest.Start(t, 3, sshdtest.Options{})
	kh := c.KnownHostsFile(t)
	tg := target(c, 2, kh)
	tg.ProxyJump = fmt.Sprintf("%s@127.0.0.1:%d,127.0.0.1:%d", c.User, c.Port(0), c.Port(1))
	p := newPool(t, sshconn.Options{})
	out := run(t, p.Host(tg), "echo $SSH_CONNECTION")
	// The last hop's sshd connected to the target: the target sees a
	// connection from loopback to its own port.
	if !strings.Contains(out.Stdout, " "+strconv.Itoa(c.Port(2))) {
		t.Errorf("SSH_CONNECTION = %q", out.Stdout)
	}
	for i := range 2 {
		if !strings.Contains(c.Instances[i].Log(), "Accepted publickey") {
			t.Errorf("jump host %d was not used:\n%s", i, c.Instances[i].Log())
		}
	}
}

func TestProxyJumpVerifiesEveryHop(t *testing.T) {
	c := sshdtest.Start(t, 3, sshdtest.Options{})
	kh := filepath.Join(t.TempDir(), "known_hosts")
	lines := append(c.Instances[0].KnownHostsLines(), c.Instances[2].KnownHostsLines()...) // hop 2 unknown
	writeFile(t, kh, strings.Join(lines, "\n")+"\n")
	tg := target(c, 2, kh)
	tg.ProxyJump = fmt.Sprintf("127.0.0.1:%d,127.0.0.1:%d", c.Port(0), c.Port(1))
	_, err := newPool(t, sshconn.Options{}).Host(tg).Run(context.Background(), "true", nil, nil, nil)
	var u *sshconn.UnknownHostKeyError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "jump host") || !strings.Contains(err.Error(), strconv.Itoa(c.Port(1))) {
		t.Fatalf("err = %v, want unknown host key of the second jump host", err)
	}
}

func TestProxyJumpForwardingRefused(t *testing.T) {
	c := sshdtest.Start(t, 2, sshdtest.Options{Extra: "AllowTcpForwarding no"})
	tg := target(c, 1, c.KnownHostsFile(t))
	tg.ProxyJump = fmt.Sprintf("127.0.0.1:%d", c.Port(0))
	_, err := newPool(t, sshconn.Options{}).Host(tg).Run(context.Background(), "true", nil, nil, nil)
	if !module.IsUnreachable(err) {
		t.Fatalf("err = %v, want unreachable", err)
	}
}

func TestSFTPPutGet(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	h := newPool(t, sshconn.Options{}).Host(target(c, 0, c.KnownHostsFile(t)))
	dir := t.TempDir()
	path := filepath.Join(dir, "verbs.conf")
	writeFile(t, path, "old contents that are longer than the new ones\n")
	ctx := context.Background()
	if err := h.Put(ctx, path, strings.NewReader("verbsRdma enable\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "verbsRdma enable\n" {
		t.Fatalf("remote file = %q, %v", data, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode().Perm())
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
	var got bytes.Buffer
	if err := h.Get(ctx, path, &got); err != nil || got.String() != "verbsRdma enable\n" {
		t.Fatalf("Get = %q, %v", got.String(), err)
	}
	err = h.Get(ctx, filepath.Join(dir, "missing"), io.Discard)
	if err == nil || module.IsUnreachable(err) {
		t.Errorf("Get of a missing file: %v, want a plain error", err)
	}
	// Commands still run alongside the SFTP session.
	run(t, h, "true")
}

// processGone reports whether pid has exited (gone or a zombie).
func processGone(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

func TestCancelKillsRemoteProcess(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	defer func() {
		if t.Failed() {
			t.Log(c.Instances[0].Log())
		}
	}()
	h := newPool(t, sshconn.Options{KillGrace: 500 * time.Millisecond}).Host(target(c, 0, c.KnownHostsFile(t)))
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		// a child in the background and a shell waiting for it: both must go.
		_, err := h.Run(ctx, "sleep 60 & echo $! > "+pidFile+"; wait", nil, nil, nil)
		done <- err
	}()
	pid := 0
	for deadline := time.Now().Add(10 * time.Second); pid == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("remote command did not start")
		}
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	cancel()
	err := <-done
	if !errors.Is(err, context.Canceled) || module.IsUnreachable(err) {
		t.Fatalf("Run after cancel: %v, want context.Canceled", err)
	}
	for deadline := time.Now().Add(5 * time.Second); !processGone(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("remote process %d survived the cancellation", pid)
		}
	}
	run(t, h, "true") // the connection is still usable
}
