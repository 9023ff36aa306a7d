// Package wait is the "wait" step module: it runs a read-only command on each
// host until it succeeds (exit 0, and stdout matching a pattern when one is
// given), the step's own max_wait elapses, or the run is cancelled. It is how
// a runbook waits for a daemon to come up or a port to go active.
//
// It never changes a host: its plan is always "no change". Retries of whole
// steps and the step timeout are the engine's meta-arguments, not this
// module's.
package wait
