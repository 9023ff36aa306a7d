// Package sshdtest starts real OpenSSH sshd instances on loopback for tests
// and benchmarks, and provides Floor, the fastest plain x/crypto/ssh fan-out
// that benchmarks compare the transport against.
//
// Start(t, n, opts) runs n sshd processes in the foreground, each with its
// own host key, PidFile and sshd_config in t.TempDir, listening on free
// loopback ports (at most 16 per process). Only public-key authentication
// is enabled, with a generated ed25519 client key; root may log in by key;
// TCP forwarding is allowed (for ProxyJump tests). The config sets
// "SetEnv SHLVL=1" so that a bash login shell skips ~/.bashrc, which on the
// test machines runs pyenv and costs about 0.3 s per command.
//
// Keys and known_hosts lines come from lab/sshserve, as for prova's own
// servers; everything else is sshd's.
//
// When sshd is not installed the test is skipped, except under CI=true
// where it fails. Processes are stopped by pid in t.Cleanup (and get
// SIGTERM if the test binary dies). sshd must run as root on Linux; this
// package does not set up unprivileged sshd.
package sshdtest
