package module

import (
	"context"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
)

// Module is one kind of step: step "<ID>" "<name>" { ... }. Every module
// also implements exactly one of Planner (it may change a host) and ReadOnly
// (it never does); Registry.Register refuses a module that implements
// neither or both.
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
	// Apply makes the change on one host (or, for a ReadOnly module, reads
	// it) and returns its outputs. The engine calls it only with a live
	// context and wholly known args.
	Apply(ctx context.Context, req ApplyRequest) (ApplyResponse, error)
}

// Planner is implemented by modules that may change a host. Plan probes one
// host read-only and reports what Apply would do; args are wholly known.
// The conformance suite (moduletest) checks that Plan only runs the probes a
// case declares and never uploads.
type Planner interface {
	Plan(ctx context.Context, req PlanRequest) (PlanResponse, error)
}

// ReadOnly is implemented by modules that never change a host: their
// commands are probes. The engine supplies their plan (NoOp, with Reads as
// the summary) and, in plan mode, runs their Apply for real, so that later
// steps and assertions see real values and a check that would fail shows in
// the plan with the diagnostic apply would print. The conformance suite
// checks the declaration: Apply issues only the case's probes, never
// uploads and never reports a change.
type ReadOnly interface {
	// Reads says in one line what the step reads on the host, for the plan
	// ("reads ofed_info -s"). Args are wholly known.
	Reads(args cty.Value) string
}

// ApplyOnly is implemented by ReadOnly modules that plan must not run even
// though they change nothing: measurements that load the hosts for a while
// (benchmarks, latency sweeps), waits that may last minutes, and commands
// the runbook author wrote. Plan shows their Reads summary and leaves their
// results known after apply.
type ApplyOnly interface {
	ReadOnly
	ApplyOnly()
}

// Destructive is implemented by modules that can destroy data on a host
// (a write benchmark on a raw block device, nvme format). DestroysData
// returns a one-line reason when Apply with these wholly known args would
// destroy data, and "" otherwise. The engine refuses such a step unless it
// says destructive = true and the command line allows destructive steps on
// the host (--allow-destructive).
type Destructive interface {
	DestroysData(args cty.Value) string
}

// Arguments is implemented by modules that read their arguments as a
// struct with `cty:"name"` tags. NewArgs returns a pointer to a zero
// struct; the engine decodes a step's arguments into one (once per step
// when they are the same on every host) and hands it over as the
// request's Typed, which the module reads with Args. The conformance suite
// checks that its tags name exactly the spec's arguments and that every
// case's arguments decode into it, so the spec, the struct and Doc.Args
// cannot drift apart.
type Arguments interface {
	NewArgs() any
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

// ApplyRequest asks a module to make it so on one host.
type ApplyRequest struct {
	Host Host
	Args cty.Value
	// Typed is Args decoded into the module's argument struct (Arguments),
	// or nil; read it with module.Args. The engine decodes it once per step
	// when the arguments are the same on every host.
	Typed   any
	BaseDir string
	// Planned is the module's own Plan answer, made just before, when the
	// engine probed first (nil when the module is applied without a plan).
	Planned *PlanResponse
	// Progress, when not nil, receives progress of long operations. The
	// module must not call it after Apply returns: the engine reuses what
	// is behind it for the host's next step.
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
	Args cty.Value
	// Typed is Args decoded into the module's argument struct (Arguments),
	// or nil; read it with module.Args.
	Typed    any
	BaseDir  string
	Progress func(host string, p Progress)
}
