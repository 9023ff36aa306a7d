// Package clusterlock is the cluster lock of apply, kept on the cluster
// rather than on the controller, so that two admins running prova from two
// laptops exclude each other: an exclusive flock(1) on a file of the lock
// host (default /var/lib/prova/cluster.lock), held by a shell that runs on
// its own session of prova's SSH connection for the whole run, with the
// holder (user@controller, run ID, runbook, start time, the shell's pid)
// written next to it (PATH.holder) and every acquire, release and break
// appended to PATH.log.
//
// The shell reads its standard input until end of file: Release closes it.
// When the controller dies, its connection closes (at the latest when
// sshd's ClientAlive or TCP keepalive gives up on it), sshd closes the
// session, the shell sees end of file and exits, and the kernel frees the
// lock. Nothing here depends on the controller cleaning up.
//
// Status reads the lock without holding it; Break kills the holding shell
// (by the pid in the holder file), waits for the lock and logs who broke
// it. The package needs /bin/sh, flock(1), mkdir, mv and kill on the lock
// host; it does not decide which host that is (the CLI does).
package clusterlock
