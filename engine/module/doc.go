// Package module defines the contract between the prova engine and its step
// modules: the Module interface and the capabilities a module adds to it
// (Planner or ReadOnly, ApplyOnly, Destructive, Arguments, StructArgs,
// BodyEvaluator, ClusterModule, Describer), the Host a module runs commands on, the request
// and response types of the plan and apply phases, an explicit Registry
// value, the context of one attempt of a step (Attempt: a deadline without a
// timer until a module asks for Done), and helpers every module needs (shell quoting, decoding into the
// module's argument struct, calling a module with a live context).
//
// It does not know which modules exist (modules/all builds the registry), how
// a runbook is parsed (engine/config) or how hosts are reached
// (engine/transport). It imports only the standard library, hcl and cty.
//
// Lifecycle of a module for one step on one host:
//
//  1. The engine splits the step body: meta-arguments (hosts, when, ...) are
//     the engine's, the rest is decoded with the module's Spec (a
//     BodyEvaluator such as assert evaluates its body itself).
//  2. Validate sees the decoded arguments, possibly holding unknown values,
//     and performs static checks only: no I/O. When they are wholly known
//     and the module implements Arguments, the engine decodes them into the
//     module's struct (once per step when they read nothing of the host)
//     and hands it over as the request's Typed; the module reads it with
//     Args. A StructArgs module declares that its plan needs nothing else:
//     the engine then plans it without making the arguments' cty object on
//     every host, and without calling its Validate (which checks nothing).
//  3. Plan. A Planner's Plan runs read-only probes and says what Apply would
//     do. A ReadOnly module has no Plan: the engine runs its Apply for real
//     in plan mode (its commands are probes), unless it is ApplyOnly. The
//     engine plans nothing whose arguments are not wholly known; the step is
//     then "known after apply". A Destructive step is refused unless the
//     runbook and the command line allow it.
//  4. Apply makes it so and returns typed outputs. It must be re-runnable: a
//     second Apply after a successful one changes nothing.
package module
