package sshserve

import (
	"context"
	"net"

	"golang.org/x/crypto/ssh"
)

// SessionFunc serves one session channel after its exec, shell or
// subsystem request was accepted. It reads the client's input from
// s.Channel and writes output to s.Channel and s.Channel.Stderr(), ends
// with s.Exit or s.ExitSignal (or neither, when the client is not to get
// a status), and returns. ctx ends when the client closes the channel or
// the connection is lost; the channel is closed after the func returns.
type SessionFunc func(ctx context.Context, s *Session)

// Session is one session channel.
type Session struct {
	Conn    net.Conn    // the connection it runs on (closing it drops every session on it)
	Channel ssh.Channel // input, output and stderr
	Env     []string    // NAME=value from env requests, in order of arrival, unfiltered
	// Type is the request that started it: "exec", "shell" or
	// "subsystem" (only "sftp" is accepted).
	Type string
	// Command is the exec request's command line, or the subsystem's
	// name.
	Command string
	// Signals delivers the signals the client sends once the session
	// has started (names without "SIG", like "TERM"). It holds up to 16;
	// more are dropped until it is read.
	Signals <-chan ssh.Signal
}

// Exit sends the exit status.
func (s *Session) Exit(status int) {
	s.Channel.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
}

// ExitSignal reports that the command was killed by signal (a name
// without "SIG", like "TERM").
func (s *Session) ExitSignal(signal string) {
	s.Channel.SendRequest("exit-signal", false, ssh.Marshal(struct {
		Signal     string
		CoreDumped bool
		Error      string
		Lang       string
	}{Signal: signal}))
}

// serveSession answers the channel's requests as OpenSSH does: env (and,
// with PTY, pty-req and window-change) before the start; one exec, shell
// (with Shell) or "sftp" subsystem request starts it; after that signal
// and (with PTY) window-change are accepted and anything else refused.
func (srv *Server) serveSession(connCtx context.Context, c net.Conn, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	ctx, cancel := context.WithCancel(connCtx)
	defer cancel()
	sigs := make(chan ssh.Signal, 16)
	s := &Session{Conn: c, Channel: ch, Signals: sigs}
	var done chan struct{}
	for {
		var req *ssh.Request
		var ok bool
		select {
		case req, ok = <-reqs:
		case <-done: // nil until the session starts
			go ssh.DiscardRequests(reqs) // the mux must not block on requests nobody reads
			return
		}
		if !ok { // channel closed by the client or connection lost
			cancel()
			if done != nil {
				<-done
			}
			return
		}
		reply := false
		started := done != nil
		switch req.Type {
		case "env":
			var kv struct{ Name, Value string }
			if !started && ssh.Unmarshal(req.Payload, &kv) == nil {
				s.Env = append(s.Env, kv.Name+"="+kv.Value)
				reply = true
			}
		case "pty-req":
			reply = srv.PTY && !started
		case "window-change":
			reply = srv.PTY
		case "signal":
			var p struct{ Signal string }
			if started && ssh.Unmarshal(req.Payload, &p) == nil {
				select {
				case sigs <- ssh.Signal(p.Signal):
				default:
				}
				reply = true
			}
		case "exec", "shell", "subsystem":
			if started || !srv.accept(s, req) {
				break
			}
			if req.Type == "exec" && srv.BeforeStart != nil && !srv.BeforeStart(s) {
				c.Close() // dropped as the command arrived: no reply, no status
				return
			}
			req.Reply(true, nil)
			done = make(chan struct{})
			go func() {
				defer close(done)
				srv.Session(ctx, s)
			}()
			continue
		}
		if req.WantReply {
			req.Reply(reply, nil)
		}
	}
}

// accept decodes a start request into s and reports whether the server
// serves it.
func (srv *Server) accept(s *Session, req *ssh.Request) bool {
	var p struct{ Value string }
	switch req.Type {
	case "shell":
		s.Type = "shell"
		return srv.Shell
	case "exec", "subsystem":
		if ssh.Unmarshal(req.Payload, &p) != nil || req.Type == "subsystem" && p.Value != "sftp" {
			return false
		}
		s.Type, s.Command = req.Type, p.Value
		return true
	}
	return false
}
