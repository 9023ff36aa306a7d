package sshtest

import (
	"net"
	"sync"
)

// StopAnswering turns every current and future connection into a black
// hole: the server reads and discards what the client sends and replies
// nothing, but keeps the TCP connection open, like a host that froze or a
// network that drops packets. Keepalives go unanswered.
func (s *Server) StopAnswering() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
}

// DropAfter lets n more exec requests run normally; every exec request
// after them closes its TCP connection at once, without an exit status, as
// when a host crashes mid-command.
func (s *Server) DropAfter(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drop = n
}

// CloseIdleSessions closes the next n session channels as soon as they
// are opened, before any request, as sshd's ChannelTimeout closes a
// session left idle. The returned channel receives once per session
// closed, after the client has answered the close.
func (s *Server) CloseIdleSessions(n int) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeIdle = n
	s.idleClosed = make(chan struct{}, n)
	return s.idleClosed
}

// SessionsOpened is how many session channels clients have opened so
// far, whether or not a request came on them.
func (s *Server) SessionsOpened() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opened
}

func (s *Server) sessionOpened() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opened++
	if s.closeIdle > 0 {
		s.closeIdle--
		return false
	}
	return true
}

func (s *Server) sessionClosed() {
	s.mu.Lock()
	c := s.idleClosed
	s.mu.Unlock()
	c <- struct{}{}
}

func (s *Server) isStopped() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stopped
}

// faultConn is a server-side connection that can be blackholed.
type faultConn struct {
	net.Conn
	srv  *Server
	once sync.Once
	done chan struct{}
}

func newFaultConn(c net.Conn, s *Server) *faultConn {
	return &faultConn{Conn: c, srv: s, done: make(chan struct{})}
}

func (c *faultConn) Read(p []byte) (int, error) {
	for {
		if c.srv.isStopped() {
			<-c.done
			return 0, net.ErrClosed
		}
		n, err := c.Conn.Read(p)
		if err != nil || !c.srv.isStopped() {
			return n, err
		}
		// stopped while reading: drop what arrived and block.
	}
}

func (c *faultConn) Write(p []byte) (int, error) {
	if c.srv.isStopped() {
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *faultConn) Close() error {
	c.once.Do(func() { close(c.done) })
	return c.Conn.Close()
}
