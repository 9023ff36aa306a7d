// Package sshserve is the SSH server that prova's own servers stand on:
// the lab's nodes (package lab) and the in-process test server
// (internal/testkit/sshtest). It holds what those two do the same way,
// on x/crypto/ssh:
//
//   - keys: generating ed25519, ECDSA and RSA keys, writing and loading
//     them in OpenSSH format, known_hosts lines (keys.go; the real-sshd
//     kit internal/testkit/sshdtest uses these too);
//   - public-key authentication against a set of authorized keys
//     (authorized.go);
//   - the listener: an accept loop that tracks every connection, closes
//     them all on Close and lets Serve return only when each has ended;
//     session channels only, global requests (keepalive@openssh.com)
//     answered with a failure as OpenSSH does (server.go);
//   - the session channel: env, pty-req and window-change, one exec,
//     shell or "sftp" subsystem request, signals after it, the exit status
//     or exit signal, and the context that ends when the client closes
//     the channel or the connection is lost (session.go).
//
// What a session does, the lab's fault switches and the test server's
// fault switches stay with their owners: a Server is given a SessionFunc
// and hooks (BeforeHandshake, WrapConn, BeforeStart, SessionOpened and
// SessionClosed). It does not run
// commands, serve SFTP, forward ports or agents, or allocate ptys (a
// pty-req is accepted only when PTY is set, and then changes nothing).
//
// It imports nothing of prova (a test in internal/arch holds that), so
// that the lab and the test kits can share it without the lab knowing the
// engine or the engine knowing the lab. It is not a hardened server for
// untrusted networks: its users listen on loopback.
package sshserve
