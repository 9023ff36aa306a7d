package module

import (
	"fmt"

	"github.com/zclconf/go-cty/cty"
)

// The typed argument adapter. A module that implements Arguments owns its
// schema twice over, as Spec and as the struct NewArgs returns (moduletest
// checks that they name the same arguments). The engine decodes a step's
// arguments into that struct once per step when they are the same on every
// host, once per host when they are not, and hands it over as the
// request's Typed; the module reads it with Args instead of decoding
// req.Args itself on every host.

// request is what Args reads: PlanRequest, ApplyRequest and ClusterRequest.
type request interface {
	arguments() (cty.Value, any)
}

func (r PlanRequest) arguments() (cty.Value, any)    { return r.Args, r.Typed }
func (r ApplyRequest) arguments() (cty.Value, any)   { return r.Args, r.Typed }
func (r ClusterRequest) arguments() (cty.Value, any) { return r.Args, r.Typed }

// Args returns the module's argument struct T for req: a copy of req.Typed
// when the engine decoded it, else req.Args decoded now (a request built
// by hand, as in a unit test). The copy is shallow: the module may set its
// fields but must not write into the maps and slices it shares with the
// step's other hosts (moduletest checks). Call it as
// module.Args[args](req).
func Args[T any, R request](req R) (T, error) {
	v, typed := req.arguments()
	switch t := typed.(type) {
	case nil:
		var out T
		err := Decode(v, &out)
		return out, err
	case *T:
		if t != nil {
			return *t, nil
		}
		var out T
		err := Decode(v, &out)
		return out, err
	default:
		var out T
		return out, fmt.Errorf("decode arguments: the engine decoded them into %T, the module reads %T", typed, &out)
	}
}

// DecodeTyped decodes wholly known args into m's argument struct, a new
// value of NewArgs's type: what the engine hands the module as Typed. It
// returns nil and no error when m does not implement Arguments.
func DecodeTyped(m Module, args cty.Value) (any, error) {
	a, ok := m.(Arguments)
	if !ok {
		return nil, nil
	}
	out := a.NewArgs()
	if err := Decode(args, out); err != nil {
		return nil, err
	}
	return out, nil
}
