package sshtest

import (
	"context"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

type sigKey struct{}

// Signals returns the signals the client sent to the session whose handler
// received ctx (names without "SIG", like "TERM"). It returns nil for a
// context that did not come from a Server.
func Signals(ctx context.Context) <-chan ssh.Signal {
	c, _ := ctx.Value(sigKey{}).(chan ssh.Signal)
	return c
}

// session serves one session channel: at most one exec or sftp request,
// then the exit status, then close.
func (s *Server) session(connCtx context.Context, fc *faultConn, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	ctx, cancel := context.WithCancel(connCtx)
	defer cancel()
	sigs := make(chan ssh.Signal, 16)
	ctx = context.WithValue(ctx, sigKey{}, sigs)
	done := make(chan int, 1)
	started := false
	for {
		select {
		case req, ok := <-reqs:
			if !ok { // channel closed by the client or connection lost
				cancel()
				if started {
					<-done
				}
				return
			}
			switch req.Type {
			case "exec":
				var p struct{ Command string }
				if started || ssh.Unmarshal(req.Payload, &p) != nil {
					req.Reply(false, nil)
					continue
				}
				p.Command = untag(p.Command)
				if !s.allowExec(p.Command) {
					fc.Close() // dropped mid-command: no reply, no status
					return
				}
				started = true
				req.Reply(true, nil)
				go func() { done <- s.handler(ctx, p.Command, ch, ch, ch.Stderr()) }()
			case "subsystem":
				var p struct{ Name string }
				if started || ssh.Unmarshal(req.Payload, &p) != nil || p.Name != "sftp" {
					req.Reply(false, nil)
					continue
				}
				started = true
				req.Reply(true, nil)
				go func() { s.serveSFTP(ch); done <- 0 }()
			case "signal":
				var p struct{ Signal string }
				if ssh.Unmarshal(req.Payload, &p) == nil {
					select {
					case sigs <- ssh.Signal(p.Signal):
					default:
					}
				}
				if req.WantReply {
					req.Reply(true, nil)
				}
			case "env":
				req.Reply(true, nil)
			default:
				if req.WantReply {
					req.Reply(false, nil)
				}
			}
		case rc := <-done:
			exitStatus(ch, rc)
			return
		}
	}
}

func (s *Server) serveSFTP(ch ssh.Channel) {
	if s.sftpMem.FileGet != nil {
		rs := sftp.NewRequestServer(ch, s.sftpMem)
		rs.Serve()
		rs.Close()
		return
	}
	srv, err := sftp.NewServer(ch, sftp.WithServerWorkingDirectory(s.sftpDir))
	if err != nil {
		return
	}
	srv.Serve()
	srv.Close()
}
