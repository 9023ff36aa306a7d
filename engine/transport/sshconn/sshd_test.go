package sshconn_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/sshconn"
	"github.com/provadev/prova/internal/testkit/sshdtest"
	"github.com/provadev/prova/internal/testkit/sshtest"
	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
)

func TestRunStatusAndStreams(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	h := newPool(t, sshconn.Options{}).Host(target(c, 0, c.KnownHostsFile(t)))
	var out, errb bytes.Buffer
	rc, err := h.Run(context.Background(), "cat; echo out; echo err >&2; exit 3", strings.NewReader("in\n"), &out, &errb)
	if err != nil || rc != 3 {
		t.Fatalf("Run: rc=%d err=%v, want 3, nil", rc, err)
	}
	if out.String() != "in\nout\n" || errb.String() != "err\n" {
		t.Errorf("stdout %q stderr %q", out.String(), errb.String())
	}
	rc, err = h.Run(context.Background(), "kill -TERM $$", nil, nil, nil)
	if err != nil || rc != 128+15 {
		t.Errorf("signal-killed command: rc=%d err=%v, want 143", rc, err)
	}
	if got := h.Name(); got != "n0" {
		t.Errorf("Name = %q", got)
	}
}

func TestUnknownHostKeyRefused(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	empty := filepath.Join(t.TempDir(), "known_hosts")
	h := newPool(t, sshconn.Options{}).Host(target(c, 0, empty))
	_, err := h.Run(context.Background(), "true", nil, nil, nil)
	var u *sshconn.UnknownHostKeyError
	if !errors.As(err, &u) || !module.IsUnreachable(err) {
		t.Fatalf("err = %v, want unreachable UnknownHostKeyError", err)
	}
	fp := ssh.FingerprintSHA256(c.Instances[0].HostKey.PublicKey())
	for _, want := range []string{"n0", "127.0.0.1", fp, "--ssh-accept-new"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, statErr := os.Stat(empty); statErr == nil {
		t.Error("known_hosts was created without accept-new")
	}
}

func TestChangedHostKeyRefused(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	_, other := sshtest.NewKey(t, t.TempDir(), "k", sshtest.Ed25519, nil)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	writeFile(t, kh, "# comment\n"+knownhosts.Line([]string{knownhosts.Normalize(c.Addr(0))}, other.PublicKey())+"\n")
	// accept-new must not accept a changed key.
	h := newPool(t, sshconn.Options{AcceptNew: true}).Host(target(c, 0, kh))
	_, err := h.Run(context.Background(), "true", nil, nil, nil)
	var ch *sshconn.HostKeyChangedError
	if !errors.As(err, &ch) || !module.IsUnreachable(err) {
		t.Fatalf("err = %v, want unreachable HostKeyChangedError", err)
	}
	for _, want := range []string{"WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!",
		ssh.FingerprintSHA256(c.Instances[0].HostKey.PublicKey()), kh + ":2", "Host key verification failed."} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not contain %q:\n%v", want, err)
		}
	}
}

func TestAcceptNewRecordsKeyOnce(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	kh := filepath.Join(t.TempDir(), "sub", "known_hosts") // directory does not exist yet
	var w warnings
	p := newPool(t, sshconn.Options{AcceptNew: true, Warn: w.add})
	// Several names for the same sshd connect at once: one line only.
	errs := make(chan error, 4)
	for i := range 4 {
		tg := target(c, 0, kh)
		tg.Name = "alias" + string(rune('a'+i))
		go func() { _, err := p.Host(tg).Run(context.Background(), "true", nil, nil, nil); errs <- err }()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(kh)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 1 {
		t.Errorf("known_hosts has %d lines, want 1:\n%s", n, data)
	}
	if st, _ := os.Stat(kh); st.Mode().Perm() != 0o600 {
		t.Errorf("known_hosts mode %v, want 0600", st.Mode().Perm())
	}
	if !strings.Contains(w.all(), "permanently added") {
		t.Errorf("no warning about the added key: %q", w.all())
	}
	// A strict pool now trusts it.
	run(t, newPool(t, sshconn.Options{}).Host(target(c, 0, kh)), "true")
}

func TestHashedKnownHostsEntry(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	line := knownhosts.Line([]string{knownhosts.HashHostname(knownhosts.Normalize(c.Addr(0)))}, c.Instances[0].HostKey.PublicKey())
	if !strings.HasPrefix(line, "|1|") {
		t.Fatalf("not a hashed line: %s", line)
	}
	kh := filepath.Join(t.TempDir(), "known_hosts")
	writeFile(t, kh, line+"\n")
	run(t, newPool(t, sshconn.Options{}).Host(target(c, 0, kh)), "true")
}

func TestKnownHostsPortForm(t *testing.T) {
	c := sshdtest.Start(t, 1, sshdtest.Options{})
	key := c.Instances[0].HostKey.PublicKey()
	kh := filepath.Join(t.TempDir(), "known_hosts")
	// A bare "127.0.0.1" entry is for port 22 only.
	writeFile(t, kh, knownhosts.Line([]string{"127.0.0.1"}, key)+"\n")
	_, err := newPool(t, sshconn.Options{}).Host(target(c, 0, kh)).Run(context.Background(), "true", nil, nil, nil)
	var u *sshconn.UnknownHostKeyError
	if !errors.As(err, &u) {
		t.Fatalf("bare host entry on port %d: err = %v, want unknown host key", c.Port(0), err)
	}
	bracketed := "[127.0.0.1]:" + strings.TrimPrefix(c.Addr(0), "127.0.0.1:")
	writeFile(t, kh, knownhosts.Line([]string{bracketed}, key)+"\n")
	run(t, newPool(t, sshconn.Options{}).Host(target(c, 0, kh)), "true")
}

func TestCertAuthorityHostKey(t *testing.T) {
	_, ca := sshtest.NewKey(t, t.TempDir(), "ca", sshtest.Ed25519, nil)
	c := sshdtest.Start(t, 1, sshdtest.Options{HostCA: ca})
	kh := filepath.Join(t.TempDir(), "known_hosts")
	// x/crypto/ssh/knownhosts matches ports exactly: "[127.0.0.1]:*" would
	// not match, so name the port.
	writeFile(t, kh, "@cert-authority "+knownhosts.Normalize(c.Addr(0))+" "+string(ssh.MarshalAuthorizedKey(ca.PublicKey())))
	run(t, newPool(t, sshconn.Options{}).Host(target(c, 0, kh)), "true")

	// Another CA is no proof: the plain key is then unknown.
	_, other := sshtest.NewKey(t, t.TempDir(), "ca2", sshtest.Ed25519, nil)
	writeFile(t, kh, "@cert-authority * "+string(ssh.MarshalAuthorizedKey(other.PublicKey())))
	_, err := newPool(t, sshconn.Options{}).Host(target(c, 0, kh)).Run(context.Background(), "true", nil, nil, nil)
	var u *sshconn.UnknownHostKeyError
	if !errors.As(err, &u) {
		t.Fatalf("untrusted CA: err = %v, want unknown host key", err)
	}
}

func TestUnreachablePortFails(t *testing.T) {
	c := sshdtest.Start(t, 2, sshdtest.Options{})
	kh := c.KnownHostsFile(t)
	c.Stop(0)
	p := newPool(t, sshconn.Options{})
	h := p.Host(target(c, 0, kh))
	_, err := h.Run(context.Background(), "true", nil, nil, nil)
	if !module.IsUnreachable(err) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("err = %v, want unreachable connection refused", err)
	}
	// The failure is remembered, and other hosts are unaffected.
	if _, err2 := h.Run(context.Background(), "true", nil, nil, nil); !module.IsUnreachable(err2) {
		t.Errorf("second Run: %v", err2)
	}
	run(t, p.Host(target(c, 1, kh)), "true")
}
