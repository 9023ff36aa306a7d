package eval

import "github.com/zclconf/go-cty/cty"

// Applied is what the result of a host-step that ran is made of when the
// step's result type has the common attributes only (CommonResultAttrs: a
// module without outputs of its own, like shell; with outputs, they read
// as null). Results.SetApplied
// keeps it as it is; the result object is made when a later expression
// reads the whole result, and an attribute read (step.x.stdout) is
// answered from it without making the object.
type Applied struct {
	Changed, Failed, Skipped bool
	RC                       int
	Stdout, Stderr, Message  string
}

// AppliedResult is the result object of type ty of a; host is its host.
// An attribute of ty beyond the common ones (a module's output, which a
// is not made of) is null.
func AppliedResult(ty cty.Type, host string, a Applied) cty.Value {
	attrs := make(map[string]cty.Value, len(ty.AttributeTypes()))
	for k, t := range ty.AttributeTypes() {
		if _, common := CommonResultAttrs[k]; !common {
			attrs[k] = cty.NullVal(t)
		}
	}
	attrs["changed"] = cty.BoolVal(a.Changed)
	attrs["failed"] = cty.BoolVal(a.Failed)
	attrs["skipped"] = cty.BoolVal(a.Skipped)
	attrs["rc"] = RCVal(a.RC)
	attrs["stdout"] = cty.StringVal(a.Stdout)
	attrs["stderr"] = cty.StringVal(a.Stderr)
	attrs["message"] = cty.StringVal(a.Message)
	attrs["host"] = cty.StringVal(host)
	return cty.ObjectVal(attrs)
}

// attr is attribute name of AppliedResult(ty, host, a); ok is false for
// an attribute ty does not have.
func (a *Applied) attr(ty cty.Type, name, host string) (cty.Value, bool) {
	if !ty.IsObjectType() || !ty.HasAttribute(name) {
		return cty.NilVal, false
	}
	switch name {
	case "changed":
		return cty.BoolVal(a.Changed), true
	case "failed":
		return cty.BoolVal(a.Failed), true
	case "skipped":
		return cty.BoolVal(a.Skipped), true
	case "rc":
		return RCVal(a.RC), true
	case "stdout":
		return cty.StringVal(a.Stdout), true
	case "stderr":
		return cty.StringVal(a.Stderr), true
	case "message":
		return cty.StringVal(a.Message), true
	case "host":
		return cty.StringVal(host), true
	}
	return cty.NullVal(ty.AttributeType(name)), true
}

// rcVals are the exit statuses 0-255 as numbers, made once: a cty number
// is an immutable value, and making one costs a big.Float of its own.
var rcVals = func() (vs [256]cty.Value) {
	for i := range vs {
		vs[i] = cty.NumberIntVal(int64(i))
	}
	return vs
}()

// RCVal is cty.NumberIntVal(rc), shared for the statuses 0-255.
func RCVal(rc int) cty.Value {
	if rc >= 0 && rc < len(rcVals) {
		return rcVals[rc]
	}
	return cty.NumberIntVal(int64(rc))
}
