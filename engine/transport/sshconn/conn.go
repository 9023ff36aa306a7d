package sshconn

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/pkg/sftp"
	"github.com/provadev/prova/engine/module"
	"golang.org/x/crypto/ssh"
)

// Conn is the connection to one host. It implements module.Host and is
// safe for concurrent use: up to Options.MaxSessions commands run at once,
// the rest wait their turn.
type Conn struct {
	pool   *Pool
	target Target

	dialing chan struct{} // one-slot lock around dialling, ctx-aware
	client  *ssh.Client
	dialErr error // permanent failure (unreachable)
	dead    chan struct{}
	deadErr error // set before dead is closed

	sem chan struct{}

	mu       sync.Mutex
	keepErr  error // why keepalive gave up, if it did
	sftpCl   *sftp.Client
	sftpOpen chan struct{}
	watches  []*cmdWatch       // Run's, idle (getWatch)
	first    chan *ssh.Session // the first session, being opened or open (firstsession.go)
	closed   bool              // close ran: watches put back are let go
}

var _ module.Host = (*Conn)(nil)

func newConn(p *Pool, t Target) *Conn {
	return &Conn{pool: p, target: t, dialing: make(chan struct{}, 1), dead: make(chan struct{}),
		sem: make(chan struct{}, p.opts.MaxSessions)}
}

// Name is the target's Name, or its address when it has none.
func (c *Conn) Name() string {
	if c.target.Name != "" {
		return c.target.Name
	}
	return c.target.Address
}

func unreachable(err error) error {
	var u interface{ Unreachable() bool }
	if errors.As(err, &u) && u.Unreachable() {
		return err
	}
	return &module.UnreachableError{Err: err}
}

// Connect dials the host now if it is not connected yet. Run, Put and Get
// call it; the engine may call it early to set up connections in
// parallel. A failure other than cancellation is remembered: the host is
// not dialled again in this pool.
func (c *Conn) Connect(ctx context.Context) error {
	_, err := c.connect(ctx)
	return err
}

func (c *Conn) connect(ctx context.Context) (*ssh.Client, error) {
	// The free lock is taken without asking ctx for its Done channel:
	// a context made for one attempt makes that channel on first use
	// (an allocation per host-step), and Run does not otherwise need it.
	select {
	case c.dialing <- struct{}{}:
	default:
		select {
		case c.dialing <- struct{}{}:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
	if err := ctx.Err(); err != nil {
		<-c.dialing
		return nil, context.Cause(ctx)
	}
	defer func() { <-c.dialing }()
	if c.dialErr != nil {
		return nil, c.dialErr
	}
	if c.client != nil {
		select {
		case <-c.dead:
			return nil, c.deadErr
		default:
			return c.client, nil
		}
	}
	t, err := c.pool.Resolve(c.target)
	if err != nil {
		c.dialErr = unreachable(err)
		return nil, c.dialErr
	}
	cl, ew, err := c.pool.dial(ctx, t)
	if err != nil {
		if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, err // cancelled: the next caller may try again
		}
		c.dialErr = unreachable(err)
		return nil, c.dialErr
	}
	c.client = cl
	ew.onEnd(func() { c.ended(cl, t) })
	c.keepalive(cl, t)
	c.openFirst(cl)
	return cl, nil
}

// ended marks the connection dead once it has ended, for whatever reason
// (endWatch calls it; no goroutine waits for it meanwhile).
func (c *Conn) ended(cl *ssh.Client, t Target) {
	err := cl.Wait()
	c.mu.Lock()
	cause := c.keepErr
	c.mu.Unlock()
	if cause == nil {
		cause = fmt.Errorf("connection to %s lost: %v", t.display(), err)
		if err == nil {
			cause = fmt.Errorf("connection to %s closed", t.display())
		}
	}
	c.deadErr = unreachable(cause)
	close(c.dead)
}

// keepalive sends keepalive@openssh.com every ServerAliveInterval and
// closes the connection when ServerAliveCountMax of them in a row went
// unanswered (any reply, even a failure, counts as an answer). It runs on
// a timer, not in a goroutine of its own per connection: each tick runs in
// a short-lived goroutine of the timer's, and the request is sent from it.
func (c *Conn) keepalive(cl *ssh.Client, t Target) {
	if t.ServerAliveInterval <= 0 {
		return
	}
	var (
		mu              sync.Mutex
		pending, closed bool
		missed          int
		timer           *time.Timer
	)
	tick := func() {
		select {
		case <-c.dead:
			return
		default:
		}
		mu.Lock()
		if closed {
			mu.Unlock()
			return
		}
		if pending {
			missed++
			if missed >= t.ServerAliveCountMax {
				closed = true
				mu.Unlock()
				c.mu.Lock()
				c.keepErr = fmt.Errorf("%s stopped answering: no reply to %d keepalives sent %s apart",
					t.display(), missed+1, t.ServerAliveInterval)
				c.mu.Unlock()
				cl.Close()
				return
			}
			timer.Reset(t.ServerAliveInterval)
			mu.Unlock()
			return
		}
		pending = true
		timer.Reset(t.ServerAliveInterval)
		mu.Unlock()
		if _, _, err := cl.SendRequest("keepalive@openssh.com", true, nil); err == nil {
			mu.Lock()
			pending, missed = false, 0
			mu.Unlock()
		}
	}
	mu.Lock()
	timer = time.AfterFunc(t.ServerAliveInterval, tick)
	mu.Unlock()
}

// acquire takes a session slot.
func (c *Conn) acquire(ctx context.Context) error {
	if ctx.Err() == nil { // a free slot, without ctx's Done channel (connect)
		select {
		case c.sem <- struct{}{}:
			return nil
		default:
		}
	}
	select {
	case c.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-c.dead:
		return c.deadErr
	}
}

func (c *Conn) release() { <-c.sem }

// newSession opens a session, classifying failures.
func (c *Conn) newSession(cl *ssh.Client) (*ssh.Session, error) {
	s, err := cl.NewSession()
	if err == nil {
		return s, nil
	}
	var oce *ssh.OpenChannelError
	if errors.As(err, &oce) { // the server refused: host alive, e.g. MaxSessions
		return nil, fmt.Errorf("open session on %s: %w", c.Name(), err)
	}
	return nil, c.lost(fmt.Errorf("open session on %s: %w", c.Name(), err))
}

// lost reports a failure that means the connection is going down: once
// it is down (normally at once), the reason it went down; otherwise err
// marked unreachable.
func (c *Conn) lost(err error) error {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	select {
	case <-c.dead:
		return c.deadErr
	case <-t.C:
	}
	return unreachable(err)
}

// releaseWatches lets go of the connection's idle watches, and of every
// other one as it is put back: their registrations with the run's
// context end with the connection.
func (c *Conn) releaseWatches() {
	c.mu.Lock()
	ws := c.watches
	c.watches, c.closed = nil, true
	c.mu.Unlock()
	for _, w := range ws {
		w.release()
	}
}

func (c *Conn) close() error {
	c.dialing <- struct{}{}
	defer func() { <-c.dialing }()
	if c.dialErr == nil {
		c.dialErr = errPoolClosed
	}
	if c.client == nil {
		return nil
	}
	c.mu.Lock()
	if c.sftpCl != nil {
		c.sftpCl.Close()
	}
	c.mu.Unlock()
	c.releaseWatches()
	err := c.client.Close()
	<-c.dead
	if err != nil && !errors.Is(err, io.EOF) && !isClosedErr(err) {
		return fmt.Errorf("close %s: %w", c.Name(), err)
	}
	return nil
}
