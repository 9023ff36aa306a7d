// Package local is a module.Host for the machine prova runs on: commands
// run with /bin/sh -c through os/exec, files are read and written directly.
//
// Each command runs in its own process group. When ctx ends, the group gets
// SIGTERM, and SIGKILL after KillGrace if it has not exited, so background
// children go too. Put replaces files atomically (temporary file in the
// same directory, then rename).
//
// It does not change user (see engine/transport/become) or sandbox
// anything.
package local
