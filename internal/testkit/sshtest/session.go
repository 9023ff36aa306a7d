package sshtest

import (
	"context"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/sshserve"
)

type sigKey struct{}

// Signals returns the signals the client sent to the session whose handler
// received ctx (names without "SIG", like "TERM"). It returns nil for a
// context that did not come from a Server.
func Signals(ctx context.Context) <-chan ssh.Signal {
	c, _ := ctx.Value(sigKey{}).(<-chan ssh.Signal)
	return c
}

// session serves one session channel's exec (through the handler) or sftp
// subsystem, then sends the exit status.
func (s *Server) session(ctx context.Context, ss *sshserve.Session) {
	if ss.Type == "subsystem" {
		s.serveSFTP(ss.Channel)
		ss.Exit(0)
		return
	}
	ctx = context.WithValue(ctx, sigKey{}, ss.Signals)
	rc := s.handler(ctx, untag(ss.Command), ss.Channel, ss.Channel, ss.Channel.Stderr())
	if ctx.Err() != nil {
		return // the client left: nobody to tell
	}
	if rc < 0 {
		ss.ExitSignal(signalName(-rc))
		return
	}
	ss.Exit(rc)
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
