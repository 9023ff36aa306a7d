// Package gpfsconfig is the "gpfs_config" step module: on each node it
// compares the configured GPFS values (mmlsconfig -Y, the value that applies
// to this node) with the values the running daemon uses (mmdiag --config
// -Y), and lists the attributes still waiting for a daemon restart.
//
// configured != effective is how a restart that never happened is found,
// also by a later run after one that died between mmchconfig and the
// restart: the module keeps no state of its own. It only reads. A daemon
// that is not running has no effective values; the module says so and
// reports nothing pending (the values apply when it starts).
package gpfsconfig
