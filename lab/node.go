package lab

import (
	"net"
	"regexp"
	"strconv"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/model"
)

// node is one simulated machine's SSH server.
type node struct {
	lab     *Lab
	model   *model.Node
	dir     string
	hostKey ssh.Signer
	config  *ssh.ServerConfig
	ln      net.Listener
	port    int

	mu    sync.Mutex // guards conns, seq and audit writes
	conns map[net.Conn]struct{}
	seq   int
}

func (n *node) serve() {
	for {
		c, err := n.ln.Accept()
		if err != nil {
			return // listener closed
		}
		n.mu.Lock()
		if n.conns == nil {
			n.conns = map[net.Conn]struct{}{}
		}
		n.conns[c] = struct{}{}
		n.mu.Unlock()
		n.lab.wg.Add(1)
		go func() {
			defer n.lab.wg.Done()
			defer n.forget(c)
			n.handle(c)
		}()
	}
}

func (n *node) forget(c net.Conn) {
	c.Close()
	n.mu.Lock()
	delete(n.conns, c)
	n.mu.Unlock()
}

func (n *node) closeConns() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for c := range n.conns {
		c.Close()
	}
}

func (n *node) handle(c net.Conn) {
	ctx := n.lab.ctx
	if d := n.model.Faults.HandshakeDelay; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
	}
	sc, chans, reqs, err := ssh.NewServerConn(c, n.config)
	if err != nil {
		return
	}
	defer sc.Close()
	go ssh.DiscardRequests(reqs)
	var wg sync.WaitGroup
	for nc := range chans {
		if nc.ChannelType() != "session" {
			nc.Reject(ssh.UnknownChannelType, "only session channels")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &session{node: n, conn: c, ch: ch, reqs: creqs}
			s.serve(ctx)
		}()
	}
	wg.Wait()
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
