package sshserve

import (
	"context"
	"net"
	"sync"

	"golang.org/x/crypto/ssh"
)

// Server serves SSH connections from a listener. Set its fields before
// Serve and do not change them after.
type Server struct {
	// Config authenticates clients and holds the host key (see Config).
	Config *ssh.ServerConfig
	// Context is the parent of every connection's context; nil means
	// context.Background(). Cancelling it does not close connections:
	// Close does.
	Context context.Context
	// Session serves each session channel once its exec, shell or
	// subsystem request is accepted (see Session).
	Session SessionFunc
	// WrapConn, when set, wraps each accepted connection (a fault switch);
	// the server then reads, writes and closes the wrapped one.
	WrapConn func(net.Conn) net.Conn
	// BeforeHandshake, when set, runs in the connection's goroutine
	// before the SSH handshake (a slow host); false drops the connection.
	BeforeHandshake func(ctx context.Context, c net.Conn) bool
	// BeforeStart, when set, sees each exec request before it is answered
	// (its Command is set); false closes the connection at once, without
	// a reply or an exit status, as when a host crashes as the command
	// arrives.
	BeforeStart func(*Session) bool
	// SessionOpened, when set, sees each session channel as it is
	// accepted, before any request; false closes the channel at once,
	// as sshd's ChannelTimeout closes a session left idle, and calls
	// SessionClosed (when set) once the client has answered the close.
	SessionOpened func() bool
	SessionClosed func()
	// PTY accepts pty-req and window-change requests (they change
	// nothing); without it they are refused.
	PTY bool
	// Shell accepts shell requests; without it they are refused.
	Shell bool

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Serve accepts connections on ln until ln is closed (by Close or its
// owner), serving each in its own goroutine. It returns only when every
// connection it accepted has ended. A Server serves one listener.
func (s *Server) Serve(ln net.Listener) {
	s.mu.Lock()
	s.ln = ln
	if s.conns == nil {
		s.conns = map[net.Conn]struct{}{}
	}
	closed := s.closed
	s.mu.Unlock()
	if closed {
		ln.Close()
	}
	defer s.wg.Wait()
	for {
		nc, err := ln.Accept()
		if err != nil {
			return // listener closed
		}
		c := nc
		if s.WrapConn != nil {
			c = s.WrapConn(nc)
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			defer s.forget(c)
			s.serveConn(c)
		}()
	}
}

// Close stops accepting and closes every connection; it does not wait
// for them to end (Serve's return does). It may be called more than once.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.ln != nil {
		s.ln.Close()
	}
	for c := range s.conns {
		c.Close()
	}
}

func (s *Server) forget(c net.Conn) {
	c.Close()
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

func (s *Server) serveConn(c net.Conn) {
	parent := s.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	if s.BeforeHandshake != nil && !s.BeforeHandshake(ctx, c) {
		return
	}
	sc, chans, reqs, err := ssh.NewServerConn(c, s.Config)
	if err != nil {
		return
	}
	defer sc.Close()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		ssh.DiscardRequests(reqs) // keepalive@openssh.com gets a failure reply, as from OpenSSH
	}()
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
		if s.SessionOpened != nil && !s.SessionOpened() {
			go func() {
				defer wg.Done()
				ch.Close()
				for r := range creqs { // ends with the client's close
					r.Reply(false, nil)
				}
				if s.SessionClosed != nil {
					s.SessionClosed()
				}
			}()
			continue
		}
		go func() {
			defer wg.Done()
			s.serveSession(ctx, c, ch, creqs)
		}()
	}
	cancel() // the connection ended: every session's context ends with it
}
