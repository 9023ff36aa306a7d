// Package apply executes a bound Program over hosts, in one of two modes:
//
//   - plan: per step and host, evaluate when and the arguments with every
//     step result unknown, and call the module's read-only Plan. A step whose
//     arguments are not wholly known, or that depends on a step planned to
//     change, is "known after apply" and is not probed.
//   - apply: per step and host, evaluate with the real results of earlier
//     steps and call Apply, with timeout, retries/delay/until, changed_when
//     and failed_when, serial batches, run_once, and become.
//
// Steps run in the Program's order. Within a step, hosts run concurrently,
// bounded by Forks. Failure rule (printed with every plan): a host whose
// step fails drops out of later steps unless the step says on_failure =
// "continue"; an unreachable host always drops out; the run stops when the
// share of a step's hosts that failed exceeds the step's
// max_fail_percentage, or when no host is left.
//
// The package reports everything as events (engine/event) and formats
// nothing. Hosts come from a function the caller provides, so transports are
// injected, not imported.
package apply
