package module

import "errors"

// IsUnreachable reports whether err means the host could not be reached or
// stopped answering (as opposed to a command that ran and failed).
// Transports mark such errors with a method Unreachable() bool, so they need
// not import this package.
func IsUnreachable(err error) bool {
	var u interface{ Unreachable() bool }
	return errors.As(err, &u) && u.Unreachable()
}

// UnreachableError wraps an error as unreachable; for transports and fakes
// that import this package anyway.
type UnreachableError struct{ Err error }

func (e *UnreachableError) Error() string     { return "unreachable: " + e.Err.Error() }
func (e *UnreachableError) Unwrap() error     { return e.Err }
func (e *UnreachableError) Unreachable() bool { return true }
