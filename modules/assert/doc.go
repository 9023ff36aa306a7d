// Package assert is the "assert" step module: it evaluates conditions on the
// controller, against variables, host facts and the results of earlier
// steps, and fails the step with a diagnostic that shows the condition's
// source and the values it referenced when one does not hold.
//
// The engine calls EvalBody (module.BodyEvaluator) with the step's body and
// evaluation context, so conditions are evaluated as expressions; Plan and
// Apply work on already-decoded arguments as a fallback and run no commands.
// Severity (fail or warn) is the engine's meta-argument, not this module's.
package assert
