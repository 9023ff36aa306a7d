package sshconn

import (
	"net"
	"sync"
)

// endWatch is the network connection under one SSH client. It calls a
// function once when the connection ends, so that no goroutine has to
// wait in ssh.Client.Wait for the whole life of every connection (at 200
// hosts that was 200 parked goroutines and their stacks, one in seven of
// a fan-out's goroutines).
//
// x/crypto/ssh ends a client for one of two reasons, and both pass
// through here: its reader's first failed Read (the peer closed, the
// network failed, a ProxyCommand exited; the transport never reads again
// after an error, and the client then closes the connection) and Close
// (Client.Close, keepalive giving up, the client's own teardown after a
// protocol error). A read deadline is never set on the connection once
// the handshake is done, so a failed Read is never a timeout the client
// would survive.
type endWatch struct {
	net.Conn

	mu    sync.Mutex
	ended bool
	fn    func()
}

func watchEnd(c net.Conn) *endWatch { return &endWatch{Conn: c} }

func (e *endWatch) Read(p []byte) (int, error) {
	n, err := e.Conn.Read(p)
	if err != nil {
		e.end()
	}
	return n, err
}

func (e *endWatch) Close() error {
	err := e.Conn.Close()
	e.end()
	return err
}

// end runs the registered function, once, in a goroutine of its own: it
// is called from the client's reader, which must go on to shut the client
// down for the function's ssh.Client.Wait to return.
func (e *endWatch) end() {
	e.mu.Lock()
	fn := e.fn
	e.ended, e.fn = true, nil
	e.mu.Unlock()
	if fn != nil {
		go fn()
	}
}

// onEnd registers fn, to run once the connection has ended (at once if it
// already has). Only the first registration counts.
func (e *endWatch) onEnd(fn func()) {
	e.mu.Lock()
	if e.ended {
		e.mu.Unlock()
		go fn()
		return
	}
	e.fn = fn
	e.mu.Unlock()
}
