// Package gpfsfake is a small in-memory GPFS cluster for the GPFS modules'
// tests: it answers mmlsconfig -Y, mmdiag --config -Y, mmchconfig,
// mmlscluster, mmgetstate -Y, mmshutdown and mmstartup on
// moduletest.FakeHosts, so that a module's Apply really changes what its
// next Plan reads, and records the order of restarts.
//
// It models only what the modules rely on: configuration with node
// sections, the running daemon's copy of it (taken at startup), and daemon
// states. Output formats follow parse/gpfs. It is not the lab's
// simulator (lab/sim) and does not run over SSH.
package gpfsfake
