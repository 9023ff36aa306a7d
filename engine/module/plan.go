package module

import "github.com/zclconf/go-cty/cty"

// Action is what Plan says Apply would do on a host.
type Action int

const (
	// NoOp: the host is already in the desired state.
	NoOp Action = iota
	// Change: Apply would change the host.
	Change
	// Unknown: cannot be known before apply (the probe depends on something
	// only apply creates, such as a file fetched from the host).
	Unknown
)

func (a Action) String() string {
	switch a {
	case NoOp:
		return "no change"
	case Change:
		return "change"
	case Unknown:
		return "known after apply"
	}
	return "invalid"
}

// PlanRequest asks a module what it would do on one host.
type PlanRequest struct {
	Host Host
	Args cty.Value
	// Typed is Args decoded into the module's argument struct (Arguments),
	// or nil; read it with module.Args.
	Typed any
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
}

// AttrChange is one attribute that Apply would change.
type AttrChange struct {
	Name string `json:"name"`
	From string `json:"from"`
	To   string `json:"to"`
}
