package sshconn

import (
	"context"

	"golang.org/x/crypto/ssh"
)

// The first session of a connection is opened as soon as the connection
// is up (openFirst), not when the first command comes, and the first
// command, or the SFTP client when a file transfer comes first, starts on
// it (takeFirst). On a fresh connection the server answers the first
// session open late: the lab's OpenSSH took about 45 ms for it while ten
// connections were being set up, against 1-9 ms for each later one. A
// command that waits for something else first paid that delay after its
// wait instead of during it: every host's first change waits for the
// cluster lock, taken on one host, so at 10 hosts the lock host's first
// open, the lock's script and the other hosts' first opens came one after
// the other, and the run took 25-35 ms longer (docs/performance.md,
// thirteenth round). Opened with the connection, the other hosts' first
// sessions open while the lock is taken.
//
// Opening a session runs nothing on the host: nothing is executed until
// the command's exec request, so a plan, which must not change a host,
// opens it too. The session holds one of the connection's slots
// (Options.MaxSessions) until a command or the SFTP client takes it, or
// the connection closes; a connection nothing uses closes it with the
// rest.

// openFirst starts opening the connection's first session on cl, just
// connected (connect calls it before any command can take a slot).
func (c *Conn) openFirst(cl *ssh.Client) {
	select {
	case c.sem <- struct{}{}:
	default:
		return // every slot is taken already: the commands open their own
	}
	ch := make(chan *ssh.Session, 1)
	c.mu.Lock()
	c.first = ch
	c.mu.Unlock()
	go func() {
		s, err := cl.NewSession()
		if err != nil {
			// The command that takes nothing opens its own session and
			// reports that failure, classified (newSession).
			c.release()
			s = nil
		}
		ch <- s
	}()
}

// takeFirst returns the connection's first session once it is open, with
// the slot it holds, or nil when there is none to take (another command
// took it, or it could not be opened): the caller then opens its own. When
// ctx ends while the session is still being opened, the session is closed
// and its slot freed as soon as it opens, and nil is returned.
func (c *Conn) takeFirst(ctx context.Context) *ssh.Session {
	c.mu.Lock()
	ch := c.first
	c.first = nil
	c.mu.Unlock()
	if ch == nil {
		return nil
	}
	select { // opened already: no Done channel asked of ctx
	case s := <-ch:
		return s
	default:
	}
	select {
	case s := <-ch:
		return s
	case <-ctx.Done():
		go func() {
			if s := <-ch; s != nil {
				s.Close()
				c.release()
			}
		}()
		return nil
	}
}

// session returns a session for a command or the SFTP client, and
// whether it is the connection's first (takeFirst), holding one of the
// connection's slots that the caller releases.
func (c *Conn) session(ctx context.Context, cl *ssh.Client) (*ssh.Session, bool, error) {
	if s := c.takeFirst(ctx); s != nil {
		return s, true, nil
	}
	if err := c.acquire(ctx); err != nil {
		return nil, false, err
	}
	s, err := c.newSession(cl)
	if err != nil {
		c.release()
		return nil, false, err
	}
	return s, false, nil
}
