// Package apply executes a bound Program over hosts, in one of two modes:
//
//   - plan: per step and host, evaluate when and the arguments with the
//     results known so far. A ReadOnly module's step runs for real (its
//     commands are probes; not an ApplyOnly one), so its result feeds later
//     steps and a failing check is "would fail" with apply's diagnostics;
//     an assertion with known inputs is evaluated; a Planner is asked what
//     Apply would do, and its result keeps changed known and outputs
//     unknown. A step whose arguments are not wholly known, or that depends
//     on a step planned to change (on any host), is "known after apply" and
//     is not probed. A host that would fail drops out as in apply, and
//     max_fail_percentage stops the plan where it would stop apply.
//   - apply: per step and host, evaluate with the real results of earlier
//     steps and call Apply, with timeout, retries/delay/until, changed_when
//     and failed_when, serial batches, run_once, and become.
//
// Steps run in the Program's order. Within a step, hosts run concurrently
// on at most Forks workers, the same goroutines from one step to the next
// (forkWorkers). What does not depend on the host (the module
// arguments, when, the shared evaluation context) is evaluated once per
// step; a when that does is evaluated once per distinct value of what it
// reads (stepEval). A command's output reaches the observers as one Output
// event per chunk of whole lines.
//
// Failure rule (printed with every plan): a host whose
// step fails drops out of later steps unless the step says on_failure =
// "continue"; an unreachable host always drops out; the run stops when the
// share of a step's hosts that failed exceeds the step's
// max_fail_percentage, or when no host is left (stop.go decides it, with
// typed causes). A step whose module says it destroys data runs only with
// destructive = true and the host allowed by Options.AllowDestructive.
//
// The package reports everything as events (engine/event) and formats
// nothing. Hosts come from a function the caller provides, so transports are
// injected, not imported.
package apply
