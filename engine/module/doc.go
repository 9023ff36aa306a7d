// Package module defines the contract between the prova engine and its step
// modules: the Module interface, the Host a module runs commands on, the
// request and response types of the plan and apply phases, an explicit
// Registry value, and helpers every module needs (shell quoting, decoding).
//
// It does not know which modules exist (modules/all builds the registry), how
// a runbook is parsed (engine/config) or how hosts are reached
// (engine/transport). It imports only the standard library, hcl and cty.
//
// Lifecycle of a module for one step on one host:
//
//  1. The engine splits the step body: meta-arguments (hosts, when, ...) are
//     the engine's, the rest is decoded with the module's Spec (or by the
//     module itself when it implements BodyDecoder).
//  2. Validate sees the decoded arguments, possibly holding unknown values,
//     and performs static checks only: no I/O.
//  3. Plan runs read-only probes on the host and says what Apply would do. The
//     engine never calls Plan when the arguments are not wholly known; the
//     step is then "known after apply".
//  4. Apply makes it so and returns typed outputs. It must be re-runnable: a
//     second Apply after a successful one changes nothing.
package module
