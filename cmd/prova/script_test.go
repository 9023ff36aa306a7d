package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/testkit/sshtest"
	"github.com/provadev/prova/lab/labtest"
)

// TestMain runs the tests through labtest.M, which removes the prova
// binary the lab tests build once the tests are done.
func TestMain(m *testing.M) {
	testscript.Main(labtest.M(m), map[string]func(){
		"prova": func() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScript runs testdata/script/*.txtar. Setup writes into $WORK:
//
//	inventory.hcl   three hosts n1..n3, in-process SSH servers on loopback
//	                that run commands with /bin/sh, keys verified
//	unknown.hcl     one host whose key is not in known_hosts
//	down.hcl        n1 plus a host whose port refuses connections
//	known_hosts, id_ed25519
func TestScript(t *testing.T) {
	var servers []*sshtest.Server
	for i := 0; i < 3; i++ {
		servers = append(servers, sshtest.NewServer(t, sshtest.ShellHandler))
	}
	stranger := sshtest.NewServer(t, sshtest.ShellHandler)
	key, err := os.ReadFile(servers[0].ClientKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(servers[1:], stranger) {
		s.AuthorizeKey(servers[0].ClientKey.PublicKey())
	}
	var known []string
	for _, s := range servers {
		known = append(known, s.KnownHostsLine())
	}
	closed := closedPort(t)

	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_GOLDEN") != "",
		Setup: func(env *testscript.Env) error {
			w := env.WorkDir
			env.Setenv("HOME", w)
			env.Setenv("NO_COLOR", "1")
			env.Setenv("SSH_AUTH_SOCK", "")
			// The SSH servers run commands on this machine: keep the
			// cluster lock of each script in its own work directory.
			env.Setenv("PROVA_LOCK_PATH", filepath.Join(w, "cluster.lock"))
			if err := os.WriteFile(filepath.Join(w, "id_ed25519"), key, 0o600); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(w, "known_hosts"), []byte(strings.Join(known, "\n")+"\n"), 0o600); err != nil {
				return err
			}
			head := "defaults {\n  user = \"root\"\n  identity_file = \"id_ed25519\"\n  known_hosts = \"known_hosts\"\n  connect_timeout = \"5s\"\n}\n"
			inv := head
			for i, s := range servers {
				group := "clients"
				if i == 0 {
					group = "servers"
				}
				inv += fmt.Sprintf("host \"n%d\" {\n  address = \"127.0.0.1\"\n  port = %d\n  groups = [%q]\n}\n", i+1, s.Port, group)
			}
			unknown := head + fmt.Sprintf("host \"stranger\" {\n  address = \"127.0.0.1\"\n  port = %d\n}\n", stranger.Port)
			down := head + fmt.Sprintf("host \"n1\" {\n  address = \"127.0.0.1\"\n  port = %d\n}\nhost \"gone\" {\n  address = \"127.0.0.1\"\n  port = %d\n}\n", servers[0].Port, closed)
			for name, body := range map[string]string{"inventory.hcl": inv, "unknown.hcl": unknown, "down.hcl": down} {
				if err := os.WriteFile(filepath.Join(w, name), []byte(body), 0o644); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// closedPort returns a loopback port with nothing listening.
func closedPort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}
