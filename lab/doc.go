// Package lab runs prova's simulated storage cluster: one real SSH server
// (lab/sshserve on x/crypto/ssh, key auth only, its own host key) per node
// on 127.0.0.1,
// each running commands for real with /bin/sh inside a private mount
// namespace where the node's files and simulated tools (packages
// lab/nsexec, lab/sim) take the place of the real ones. A command line
// that is only a plain call of a simulated tool (plaincall.go) runs in the
// server process instead, with the same tool, environment and audit entry
// and decoded state kept between commands (sim.Memo): that is what makes
// a 1,000-node lab affordable on a small machine (Options.ShellOnly turns
// it off).
//
// Start runs a lab in-process (tests use lab/labtest); Up, Status, Expand
// and Down drive a detached "prova lab serve" process for the CLI. The lab
// directory holds the inventory (prova's HCL format), the client key,
// known_hosts, an ssh_config, each node's model, files, state and audit log
// (ReadAudit). Scenario faults (package lab/scenario) act here: a node
// that does not listen, a slow handshake, a connection dropped while a
// command runs, a command that hangs.
//
// The lab listens on 127.0.0.1 only. Addresses in simulated tool output
// (10.10.x.y) are text and are never contacted.
package lab
