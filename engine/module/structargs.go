package module

// StructArgs is implemented by Planner modules whose plan and apply need
// no cty object of their arguments: Validate checks nothing the spec does
// not (it returns no diagnostics, whatever the value), and Plan and Apply
// read their arguments only with Args, from the struct the engine decoded
// (the request's Typed). For such a module the engine may plan and apply
// a step whose arguments differ from host to host without making the
// arguments' cty object on each host: it decodes each host's per-host
// arguments straight into a copy of the struct, skips Validate, and hands
// Plan and Apply a request whose Args is cty.NilVal and whose Typed is
// set. Elsewhere (arguments the struct's way does not take, and steps
// whose arguments are the same on every host) they get both.
//
// A Destructive module is never run that way (DestroysData reads the
// object), nor a ClusterModule. The conformance suite (moduletest) checks
// the declaration: Validate gives no diagnostics for any case's
// arguments, and Plan and Apply give the same answers, issuing the same
// commands, with Args left out.
type StructArgs interface {
	Module
	Planner
	Arguments
	// StructArgs marks the declaration; it is never called.
	StructArgs()
}
