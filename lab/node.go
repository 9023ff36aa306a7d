package lab

import (
	"context"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sshserve"
)

// node is one simulated machine's SSH server: the shared server of
// lab/sshserve with the node's host key, the lab's client key, the node's
// handshake fault and its sessions (session.go).
type node struct {
	lab     *Lab
	model   *model.Node
	dir     string
	hostKey ssh.Signer
	srv     *sshserve.Server // nil when the scenario keeps SSH down
	port    int

	mu  sync.Mutex // guards seq and audit writes
	seq int
}

// listen starts the node's server on ln; it runs until Lab.Close.
func (n *node) listen(ln net.Listener) {
	n.srv = &sshserve.Server{
		Config:          sshserve.Config(n.hostKey, n.lab.clientKeys, "SSH-2.0-OpenSSH_8.7 prova-lab"),
		Context:         n.lab.ctx,
		Session:         n.serveSession,
		BeforeHandshake: n.handshakeDelay,
		PTY:             true,
		Shell:           true,
	}
	n.lab.wg.Add(1)
	go func() { defer n.lab.wg.Done(); n.srv.Serve(ln) }()
}

// close stops accepting and drops every connection.
func (n *node) close() {
	if n.srv != nil {
		n.srv.Close()
	}
}

// handshakeDelay is the scenario's slow handshake.
func (n *node) handshakeDelay(ctx context.Context, _ net.Conn) bool {
	d := n.model.Faults.HandshakeDelay
	return d <= 0 || sim.SleepContext(ctx, d) == nil
}

// serveSession runs one session's exec, shell or sftp subsystem. The
// client's env requests are kept except PATH and PROVA_LAB_*, which the
// lab sets.
func (n *node) serveSession(ctx context.Context, ss *sshserve.Session) {
	s := &session{node: n, ss: ss, ch: ss.Channel}
	for _, kv := range ss.Env {
		if name, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(name, "PROVA_LAB_") && name != "PATH" {
			s.env = append(s.env, kv)
		}
	}
	switch ss.Type {
	case "exec":
		s.run(ctx, ss.Command, "exec")
	case "shell":
		s.run(ctx, "", "shell")
	case "subsystem":
		s.run(ctx, "", "sftp")
	}
}

func (n *node) nextID() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.seq++
	return time.Now().Format("150405") + "-" + strconv.Itoa(n.seq)
}

func matches(pattern, cmd string) bool {
	if pattern == "" {
		return false
	}
	re, err := regexp.Compile(pattern)
	return err == nil && re.MatchString(cmd)
}
