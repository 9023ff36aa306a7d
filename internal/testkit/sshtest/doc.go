// Package sshtest runs an in-process SSH server on loopback for tests, in the
// manner of net/http/httptest: NewServer(t, handler) listens on
// 127.0.0.1:0 with a fresh host key, accepts a generated client key, records
// every command it receives, and is closed by t.Cleanup.
//
// Exec requests are answered by a Handler (by default ShellHandler, which
// runs the command through /bin/sh on this machine). Signal requests reach
// the handler through Signals(ctx); the handler's context is cancelled when
// the client closes the session or the connection ends. The "sftp"
// subsystem is served from a directory of the real filesystem or from
// memory (sftp.InMemHandler). Fault switches simulate a dead peer
// (StopAnswering), a connection dropped mid-command (DropAfter) and
// sessions the server closes before any request, as sshd's ChannelTimeout
// does (CloseIdleSessions); SessionsOpened counts the session channels
// opened, requests or not.
//
// It stands on lab/sshserve, the server the lab's nodes run too (keys,
// authentication, accept loop, session requests); what is its own is the
// Handler, the recorded commands, the SFTP backends and the faults.
//
// It does not implement port forwarding, ptys, shells or agent forwarding,
// and it is not a security boundary: use it only in tests.
package sshtest
