// Package gpfsconfig is the "gpfs_config" step module: on each node it
// compares the configured GPFS values (mmlsconfig -Y, the value that applies
// to this node) with the values the running daemon uses (mmdiag --config
// -Y), and lists the attributes still waiting for a daemon restart.
//
// configured != effective is how a restart that never happened is found,
// also by a later run after one that died between mmchconfig and the
// restart: the module keeps no state of its own. It only reads. A daemon
// that is not running has no effective values: none of the configured
// values is in effect, so every compared attribute counts as pending and
// restart_pending is true, and the restart step starts the node (a node an
// interrupted restart left down is not forgotten).
package gpfsconfig
