package module

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// Module is one kind of step: step "<ID>" "<name>" { ... }.
type Module interface {
	// ID is the first label of the step block, lowercase_with_underscores.
	ID() string
	// Spec is the schema of the module's own arguments. The engine decodes
	// the step body (minus meta-arguments) with it.
	Spec() hcldec.Spec
	// Outputs is the object type of the module's typed outputs. They are
	// merged into the step result next to the common attributes (changed,
	// failed, skipped, rc, stdout, stderr), so their names must not clash.
	Outputs() cty.Type
	// Validate performs static checks on decoded arguments, which may hold
	// unknown values. No I/O.
	Validate(args cty.Value) hcl.Diagnostics
	// Plan probes one host read-only and reports what Apply would do. Args
	// are wholly known.
	Plan(ctx context.Context, req PlanRequest) (PlanResponse, error)
	// Apply makes the change on one host and returns its outputs.
	Apply(ctx context.Context, req ApplyRequest) (ApplyResponse, error)
}

// BodyEvaluator is implemented by modules whose work is evaluating their own
// body's expressions on the controller (assert). Failure diagnostics then
// carry the expression and its evaluation context, so the console shows the
// value of every expression a failed condition referenced. The engine calls
// EvalBody instead of decoding with Spec and calling Plan or Apply; known is
// false when the body depends on values not known yet (plan time). diags
// holds errors in the body itself (wrong types); a condition that does not
// hold is resp.Failed with resp.Diagnostics.
type BodyEvaluator interface {
	EvalBody(body hcl.Body, ectx *hcl.EvalContext) (resp ApplyResponse, known bool, diags hcl.Diagnostics)
}

// Describer is implemented by modules that document themselves.
type Describer interface {
	Doc() Doc
}

// Doc is a module's reference documentation.
type Doc struct {
	Summary string
	// Args and Outputs describe each argument and output by name.
	Args    map[string]string
	Outputs map[string]string
	// Example is a complete step block that must validate.
	Example string
}

// Action is what Plan says Apply would do on a host.
type Action int

const (
	// NoOp: the host is already in the desired state, or the step only reads.
	NoOp Action = iota
	// Change: Apply would change the host.
	Change
	// Unknown: cannot be known before apply (arguments depend on results of
	// earlier steps, or the probe depends on a change earlier in the run).
	Unknown
	// Skip: the step does not run on this host (when = false).
	Skip
)

func (a Action) String() string {
	switch a {
	case NoOp:
		return "no change"
	case Change:
		return "change"
	case Unknown:
		return "known after apply"
	case Skip:
		return "skip"
	}
	return "invalid"
}

// Symbol is the one-character prefix used in plan output.
func (a Action) Symbol() string {
	switch a {
	case NoOp:
		return "="
	case Change:
		return "~"
	case Unknown:
		return "?"
	case Skip:
		return "-"
	}
	return "!"
}

// PlanRequest asks a module what it would do on one host.
type PlanRequest struct {
	Host Host
	Args cty.Value
	// BaseDir is the directory of the runbook; relative local paths in
	// arguments (copy's source) are resolved against it.
	BaseDir string
}

// PlanResponse is a module's answer to PlanRequest.
type PlanResponse struct {
	Action Action
	// Summary is one line for the plan, e.g. "verbsRdma: disable -> enable".
	Summary string
	// Changes lists attribute-level differences, used in the plan output and
	// to detect drift between a saved plan and the hosts.
	Changes []AttrChange
	// ReadOnly marks steps that never change a host (checks, benchmarks).
	ReadOnly bool
}

// AttrChange is one attribute that Apply would change.
type AttrChange struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}

// ApplyRequest asks a module to make it so on one host.
type ApplyRequest struct {
	Host    Host
	Args    cty.Value
	BaseDir string
	// Planned is the module's own Plan answer, made just before, when the
	// engine probed first (nil when the module is applied without a plan).
	Planned *PlanResponse
	// Progress, when not nil, receives progress of long operations.
	Progress func(Progress)
}

// Progress reports how far a long operation is.
type Progress struct {
	Message   string
	Elapsed   float64 // seconds
	Remaining float64 // seconds, 0 if unknown
}

// ApplyResponse is the result of Apply on one host.
type ApplyResponse struct {
	Changed bool
	// Outputs is an object of type Module.Outputs(); null outputs are
	// filled with nulls by the engine.
	Outputs cty.Value
	// RC, Stdout and Stderr are the main command's, when the module has one.
	RC     int
	Stdout string
	Stderr string
	// Failed marks a failure the module detected itself (an assertion that
	// does not hold, a check that found a problem). Diagnostics explain it.
	Failed      bool
	Message     string
	Diagnostics hcl.Diagnostics
	// Evidence holds raw tool outputs worth keeping in the run record, keyed
	// by a short name ("mmfsadm test verbs conn").
	Evidence map[string]string
	// Checks are assertions the module evaluated, kept in the run record.
	Checks []Check
}

// Check is one evaluated assertion: what was measured, the threshold and the
// verdict. Reports are built from these.
type Check struct {
	Name      string `json:"name"`
	Measured  string `json:"measured"`
	Threshold string `json:"threshold,omitempty"`
	Verdict   string `json:"verdict"` // pass, fail, warn
	Message   string `json:"message,omitempty"`
}

// ClusterModule is implemented by modules whose work spans several hosts at
// once (pairwise RDMA latency: a server on one host, a client on another).
// In apply, the engine calls ApplyCluster once per step (per serial batch)
// with every selected host whose when held, instead of Apply per host, and
// records each host's response as that host's result. Plan is still called
// per host. Hosts are keyed by inventory name.
type ClusterModule interface {
	ApplyCluster(ctx context.Context, req ClusterRequest) (map[string]ApplyResponse, error)
}

// ClusterRequest is the input of ApplyCluster.
type ClusterRequest struct {
	Hosts map[string]Host
	// Order lists the host names in inventory order.
	Order []string
	// Args are the arguments decoded on the first host (cluster modules
	// should not depend on per-host values).
	Args     cty.Value
	BaseDir  string
	Progress func(host string, p Progress)
}
