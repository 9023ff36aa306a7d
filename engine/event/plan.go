package event

// PlanAction is what the plan says apply would do with one step on one
// host. Its text is what the console and the JSON stream show; code compares
// the constants, never the text.
type PlanAction string

// Plan actions.
const (
	// PlanNoChange: the host is already in the desired state, or the step only
	// reads (read-only steps ran for real and their checks held).
	PlanNoChange PlanAction = "no change"
	// PlanChange: apply would change the host.
	PlanChange PlanAction = "change"
	// PlanUnknown: the step depends on a value only apply produces (a
	// result of a step planned to change, a measurement plan does not run).
	PlanUnknown PlanAction = "known after apply"
	// PlanSkip: the step does not run on this host (when is false).
	PlanSkip PlanAction = "skip"
	// PlanWouldFail: apply would fail here: a read-only check found a problem,
	// an assertion does not hold, or a destructive step is not allowed.
	PlanWouldFail PlanAction = "would fail"
	// PlanError: the step could not be planned (an expression error, a
	// probe that could not run).
	PlanError PlanAction = "error"
	// PlanUnreachable: the host could not be reached.
	PlanUnreachable PlanAction = "unreachable"
)

// Symbol is the one-character prefix of the action in plan output.
func (a PlanAction) Symbol() string {
	switch a {
	case PlanNoChange:
		return "="
	case PlanChange:
		return "~"
	case PlanUnknown:
		return "?"
	case PlanSkip:
		return "-"
	}
	return "!"
}

// Certain reports whether the action means apply will certainly not
// succeed on the host: plan exits 1 when any planned host is such.
func (a PlanAction) Certain() bool {
	return a == PlanWouldFail || a == PlanError || a == PlanUnreachable
}

// AbortCause says why a run stopped before its last step.
type AbortCause string

// Abort causes.
const (
	// AbortInterrupted: the run was cancelled (Ctrl-C, SIGTERM).
	AbortInterrupted AbortCause = "interrupted"
	// AbortInvalidStep: a step's meta-arguments or hosts could not be
	// evaluated.
	AbortInvalidStep AbortCause = "invalid_step"
	// AbortMaxFail: a step's failed share of hosts exceeded its
	// max_fail_percentage.
	AbortMaxFail AbortCause = "max_fail_percentage"
	// AbortNoHosts: every host dropped out.
	AbortNoHosts AbortCause = "no_hosts_left"
	// AbortHalted: the caller asked the run to stop (the run record can no
	// longer be written).
	AbortHalted AbortCause = "halted"
	// AbortLocked: another run holds the cluster lock (or it could not be
	// taken) before the first change.
	AbortLocked AbortCause = "lock_refused"
)
