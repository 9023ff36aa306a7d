// Command floor is the fan-out floor as a process of its own: it runs
// sshdtest.Floor (one x/crypto/ssh connection per address, all dialled in
// parallel, the commands back to back on each) so that the benchmark
// harness can measure its wall time, CPU and memory exactly as it measures
// prova.
//
// Usage:
//
//	floor -key FILE -known-hosts FILE [-user USER] [-cmd CMD] [-n 10] ADDR...
//
// Each ADDR is host:port. Host keys are checked against the known_hosts
// file. It prints nothing on success and exits 1 with the first error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/user"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"

	"github.com/provadev/prova/internal/sshdtest"
)

func main() {
	key := flag.String("key", "", "private key file (required)")
	kh := flag.String("known-hosts", "", "known_hosts file (required)")
	login := flag.String("user", "", "remote user (default: the local user)")
	command := flag.String("cmd", "true", "command to run")
	n := flag.Int("n", 10, "times to run the command on each host")
	flag.Parse()
	if err := run(*key, *kh, *login, *command, *n, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(keyFile, khFile, login, command string, n int, addrs []string) error {
	if keyFile == "" || khFile == "" || len(addrs) == 0 {
		return fmt.Errorf("need -key, -known-hosts and at least one address")
	}
	pem, err := os.ReadFile(keyFile)
	if err != nil {
		return err
	}
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		return fmt.Errorf("key %s: %w", keyFile, err)
	}
	hk, err := knownhosts.New(khFile)
	if err != nil {
		return fmt.Errorf("known_hosts %s: %w", khFile, err)
	}
	if login == "" {
		u, err := user.Current()
		if err != nil {
			return err
		}
		login = u.Username
	}
	cfg := &ssh.ClientConfig{User: login, Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: hk, Timeout: 30 * time.Second}
	cmds := make([]string, n)
	for i := range cmds {
		cmds[i] = command
	}
	return sshdtest.Floor(context.Background(), addrs, cfg, cmds)
}
