package sshconn_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/provadev/prova/engine/transport/sshconn"
)

const sampleConfig = `# global defaults come first in the file, as OpenSSH reads top down
Host bastion
    HostName 10.0.0.1
    User jump

Host gpfs-* !gpfs-test
    User admin
    Port 2222
    IdentityFile ~/.ssh/id_gpfs
    IdentityFile %d/.ssh/id_%r
    ProxyJump bastion
    ServerAliveInterval 5
    ServerAliveCountMax 2

Host gpfs-?1
    Port 2200
    ConnectTimeout=7

Match host gpfs-*
    User nobody

Host *
    User fallback
    IdentitiesOnly yes
    StrictHostKeyChecking accept-new
    UserKnownHostsFile ~/.ssh/kh1 "/etc/ssh/with space"
    IdentityFile ~/.ssh/id_default
`

func parse(t *testing.T, text string) *sshconn.Config {
	t.Helper()
	c, err := sshconn.ParseConfig([]byte(text), "config", "/home/u")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestResolveTargetFromConfig(t *testing.T) {
	cfg := parse(t, sampleConfig)
	if len(cfg.Warnings) != 0 {
		t.Errorf("Warnings = %q", cfg.Warnings)
	}
	got, warns := sshconn.ResolveTarget(sshconn.Target{Name: "gpfs-n1"}, cfg, "/home/u", "me")
	want := sshconn.Target{
		Name: "gpfs-n1", Address: "gpfs-n1", Port: 2222, User: "admin",
		// IdentityFile accumulates in file order; tokens and ~ expand.
		IdentityFiles:  []string{"/home/u/.ssh/id_gpfs", "/home/u/.ssh/id_admin", "/home/u/.ssh/id_default"},
		IdentitiesOnly: true, ProxyJump: "bastion",
		KnownHostsFiles:       []string{"/home/u/.ssh/kh1", "/etc/ssh/with space"},
		StrictHostKeyChecking: "accept-new",
		ConnectTimeout:        7 * time.Second, ServerAliveInterval: 5 * time.Second, ServerAliveCountMax: 2,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ResolveTarget (-want +got):\n%s", diff)
	}
	if len(warns) != 0 {
		t.Errorf("warnings %q", warns)
	}
}

func TestResolveTargetInventoryWins(t *testing.T) {
	cfg := parse(t, sampleConfig)
	in := sshconn.Target{Name: "n1", Address: "gpfs-n1", Port: 22, User: "root",
		IdentityFiles: []string{"/keys/a"}, ProxyJump: "none", StrictHostKeyChecking: "yes",
		KnownHostsFiles: []string{"/kh"}, ConnectTimeout: time.Second}
	got, _ := sshconn.ResolveTarget(in, cfg, "/home/u", "me")
	if got.Port != 22 || got.User != "root" || got.ProxyJump != "" || got.StrictHostKeyChecking != "yes" ||
		!cmp.Equal(got.IdentityFiles, []string{"/keys/a"}) || !cmp.Equal(got.KnownHostsFiles, []string{"/kh"}) ||
		got.ConnectTimeout != time.Second {
		t.Errorf("inventory values lost: %+v", got)
	}
	if got.Address != "gpfs-n1" {
		t.Errorf("Address = %q", got.Address)
	}
}

func TestResolveTargetDefaults(t *testing.T) {
	got, _ := sshconn.ResolveTarget(sshconn.Target{Name: "gpfs-test"}, parse(t, "Host gpfs-* !gpfs-test\n Port 1\n"), "/h", "me")
	want := sshconn.Target{Name: "gpfs-test", Address: "gpfs-test", Port: 22, User: "me",
		KnownHostsFiles: []string{"/h/.ssh/known_hosts"}, StrictHostKeyChecking: "yes",
		ConnectTimeout: sshconn.DefaultConnectTimeout, ServerAliveInterval: sshconn.DefaultServerAliveInterval,
		ServerAliveCountMax: sshconn.DefaultServerAliveCountMax}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	// nil config: defaults only.
	if got2, _ := sshconn.ResolveTarget(sshconn.Target{Name: "gpfs-test"}, nil, "/h", "me"); !cmp.Equal(want, got2) {
		t.Errorf("nil config: %+v", got2)
	}
}

func TestResolveTargetWarnsUnsupported(t *testing.T) {
	cfg := parse(t, "Host x\n  ProxyCommand nc %h %p\n  HostKeyAlias other\n  CertificateFile ~/c.pub\n")
	got, warns := sshconn.ResolveTarget(sshconn.Target{Name: "x"}, cfg, "/h", "me")
	all := strings.Join(warns, "\n")
	if !strings.Contains(all, "config:3: hostkeyalias is not supported") || !strings.Contains(all, "config:4: CertificateFile") {
		t.Errorf("warnings %q", warns)
	}
	if strings.Contains(all, "proxycommand") || got.ProxyCommand != "nc %h %p" {
		t.Errorf("ProxyCommand %q, warnings %q", got.ProxyCommand, warns)
	}
}

func TestIncludeInsideHostBlock(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	writeFile(t, filepath.Join(home, ".ssh", "inc"), "User included\nHost other\n  Port 3\n")
	cfg, err := sshconn.ParseConfig([]byte("Host a\n  Include inc\nHost *\n  User last\n  Port 4\n"), "config", home)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := sshconn.ResolveTarget(sshconn.Target{Name: "a"}, cfg, home, "me")
	b, _ := sshconn.ResolveTarget(sshconn.Target{Name: "b"}, cfg, home, "me")
	// "Host other" inside the include only applies when the enclosing
	// "Host a" matched too, so it never applies to "other" alone.
	o, _ := sshconn.ResolveTarget(sshconn.Target{Name: "other"}, cfg, home, "me")
	if a.User != "included" || b.User != "last" || o.Port != 4 {
		t.Errorf("a=%s b=%s other port=%d", a.User, b.User, o.Port)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, text := range []string{"Host\n", "User \"unterminated\n", "Port\n", "Hostnme x\n", "Port notanumber\n",
		"StrictHostKeyChecking maybe\n", "ConnectTimeout soon\n", "Match bogus x\n", "Match all host x\n", "Match canonical all final\n", "Match host\n"} {
		_, err := sshconn.ParseConfig([]byte(text), "cfg", "/h")
		var ce *sshconn.ConfigError
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Pos, "cfg:1") {
			t.Errorf("%q: err = %v, want a ConfigError at cfg:1", text, err)
		}
	}
}

func FuzzParseConfig(f *testing.F) {
	f.Add(sampleConfig)
	f.Add("Host a b !c\n\tUser=\"x y\" # comment\nInclude /nonexistent/*\n")
	f.Add("Match all\nPort 1\n")
	f.Add("Match host gpfs-* exec \"false\" !user x final\n  User a\nHost GPFS-N1\n  HostName X%h\n  IdentityFile a\"b c\"d\n")
	f.Fuzz(func(t *testing.T, text string) {
		cfg, err := sshconn.ParseConfig([]byte(text), "fuzz", "/nonexistent-home")
		if err != nil {
			return
		}
		// never run what a fuzzed Match exec says
		res := sshconn.Resolve(sshconn.Target{Name: "gpfs-n1"}, cfg, sshconn.MatchEnv{Home: "/h", LocalUser: "me",
			Exec: func(string) bool { return false }})
		r := res.Target
		if r.Port <= 0 || r.Port > 65535 || r.Address == "" {
			t.Fatalf("bad resolution %+v", r)
		}
	})
}
