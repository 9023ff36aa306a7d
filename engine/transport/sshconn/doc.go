// Package sshconn is prova's SSH transport: a Pool of connections, one per
// host for a whole run, each a module.Host (Run, Put, Get).
//
// What it does:
//   - Dials lazily on first use (or Conn.Connect), once per host; steps
//     share the connection, with at most Options.MaxSessions concurrent
//     sessions (the SFTP client holds one). Different hosts dial in
//     parallel. Jump hosts (ProxyJump chains) are shared and each hop is
//     verified against known_hosts. A connection's first session is opened
//     as soon as it is up, and its first command starts on it
//     (firstsession.go).
//   - Reads ~/.ssh/config (or Options.SSHConfigFile) with its own parser:
//     Host blocks with wildcards and negation, Include, HostName, User,
//     Port, IdentityFile, IdentitiesOnly, ProxyJump, ConnectTimeout,
//     ServerAliveInterval, ServerAliveCountMax, UserKnownHostsFile,
//     StrictHostKeyChecking. Match blocks are skipped with a warning.
//     Values set in Target win over ssh_config (see ResolveTarget).
//   - Authenticates with ssh-agent keys, identity files (ed25519, ECDSA,
//     RSA; encrypted ones through Options.Passphrase, asked once per file)
//     and certificates found as "key-cert.pub" next to a key.
//   - Checks host keys with known_hosts (hashed entries, [host]:port,
//     @cert-authority, @revoked). Unknown keys are refused under "yes",
//     recorded once under "accept-new" (file created 0600, appends locked),
//     and a changed key is always refused with OpenSSH's warning.
//   - Marks every failure to reach or keep a host as unreachable
//     (module.IsUnreachable): refused or timed-out connections, handshake
//     and authentication failures, refused host keys, a connection lost
//     mid-command, and keepalive timeouts (keepalive@openssh.com every
//     ServerAliveInterval; after ServerAliveCountMax unanswered the
//     connection is closed).
//   - A command that ran returns its status and a nil error; one killed by
//     signal N returns 128+N. Cancelling ctx sends SIGTERM, then SIGKILL
//     after Options.KillGrace, to the remote process group, then closes the
//     session.
//
// What it does not do: ProxyCommand, Match, HostKeyAlias, CertificateFile,
// agent or X11 forwarding, ptys, password or keyboard-interactive
// authentication, ControlMaster sharing with the OpenSSH client, or
// reconnecting a lost host within a run. Privilege escalation is in
// engine/transport/become.
package sshconn
