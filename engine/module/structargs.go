package module

// StructArgs is implemented by Planner modules whose plan needs no cty
// object of their arguments: Validate checks nothing the spec does not
// (it returns no diagnostics, whatever the value), and Plan reads its
// arguments only with Args, from the struct the engine decoded (the
// request's Typed). For such a module the engine may plan a step whose
// arguments differ from host to host without making the arguments' cty
// object on each host: it decodes each host's per-host arguments straight
// into a copy of the struct, skips Validate, and hands Plan a request
// whose Args is cty.NilVal and whose Typed is set. Apply always gets both.
//
// A Destructive module is never planned that way (DestroysData reads the
// object). The conformance suite (moduletest) checks the declaration:
// Validate gives no diagnostics for any case's arguments, and Plan gives
// the same answer, issuing the same commands, with Args left out.
type StructArgs interface {
	Module
	Planner
	Arguments
	// StructArgs marks the declaration; it is never called.
	StructArgs()
}
