// Command floor is the fan-out floor as a process of its own: it runs
// sshdtest.Floor (one x/crypto/ssh connection per address, all dialled in
// parallel, the commands back to back on each) so that the benchmark
// harness can measure its wall time, CPU and memory exactly as it measures
// prova.
//
// Usage:
//
//	floor -key FILE -known-hosts FILE [-user USER] [-cmd CMD] [-n 10] [-lockstep] ADDR...
//
// Each ADDR is host:port. Host keys are checked against the known_hosts
// file. It prints nothing on success and exits 1 with the first error.
//
// With -lockstep every host runs command i only once every host has run
// command i-1, as prova runs steps (a step starts when the previous one
// ended on every host): the difference to the plain floor is the cost of
// that barrier, not of any implementation.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/user"
	"time"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/knownhosts"
	"golang.org/x/sync/errgroup"

	"github.com/provadev/prova/internal/testkit/sshdtest"
)

func main() {
	key := flag.String("key", "", "private key file (required)")
	kh := flag.String("known-hosts", "", "known_hosts file (required)")
	login := flag.String("user", "", "remote user (default: the local user)")
	command := flag.String("cmd", "true", "command to run")
	n := flag.Int("n", 10, "times to run the command on each host")
	lockstep := flag.Bool("lockstep", false, "run command i on every host before command i+1 on any")
	flag.Parse()
	if err := run(*key, *kh, *login, *command, *n, *lockstep, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(keyFile, khFile, login, command string, n int, lockstep bool, addrs []string) error {
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
	if lockstep {
		return lockstepFloor(context.Background(), addrs, cfg, cmds)
	}
	return sshdtest.Floor(context.Background(), addrs, cfg, cmds)
}

// lockstepFloor dials every address in parallel, then runs each command on
// every host at once, waiting for all before the next command.
func lockstepFloor(ctx context.Context, addrs []string, cfg *ssh.ClientConfig, cmds []string) error {
	clients := make([]*ssh.Client, len(addrs))
	defer func() {
		for _, c := range clients {
			if c != nil {
				c.Close()
			}
		}
	}()
	g, gctx := errgroup.WithContext(ctx)
	for i, addr := range addrs {
		g.Go(func() error {
			var d net.Dialer
			nc, err := d.DialContext(gctx, "tcp", addr)
			if err != nil {
				return fmt.Errorf("dial %s: %w", addr, err)
			}
			sc, chans, reqs, err := ssh.NewClientConn(nc, addr, cfg)
			if err != nil {
				nc.Close()
				return fmt.Errorf("handshake %s: %w", addr, err)
			}
			clients[i] = ssh.NewClient(sc, chans, reqs)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	for _, cmd := range cmds {
		g, _ := errgroup.WithContext(ctx)
		for i, c := range clients {
			g.Go(func() error {
				s, err := c.NewSession()
				if err != nil {
					return fmt.Errorf("session on %s: %w", addrs[i], err)
				}
				defer s.Close()
				if err := s.Run(cmd); err != nil {
					return fmt.Errorf("%q on %s: %w", cmd, addrs[i], err)
				}
				return nil
			})
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	return nil
}
