package module

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

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
// returns nil and no error when m does not implement Arguments. Arguments
// holding a marked value (a cty mark: a sensitive one, say) are an error
// naming them (Decode's check).
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

// markedArgs is Decode's error for arguments that hold marked
// values: it names each by its path (command, env["KEY"], targets[0]),
// never its value nor its marks. cty keeps a set's marks on the set, not
// its elements; should a path step into one, the element is written [*]:
// its key would be the value itself.
func markedArgs(args cty.Value) error {
	unmarked, pvms := args.UnmarkDeepWithPaths()
	names := make([]string, 0, len(pvms))
	for _, pvm := range pvms {
		names = append(names, argPath(unmarked, pvm.Path))
	}
	slices.Sort(names)
	names = slices.Compact(names)
	return fmt.Errorf("decode arguments: a marked value (a sensitive one, say) in %s: the module's argument struct cannot keep the mark", strings.Join(names, ", "))
}

// argPath writes path, a path into v (unmarked), as the runbook would
// spell it.
func argPath(v cty.Value, path cty.Path) string {
	if len(path) == 0 {
		return "the arguments as a whole"
	}
	var b strings.Builder
	for _, step := range path {
		switch st := step.(type) {
		case cty.GetAttrStep:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(st.Name)
			if v.Type().IsObjectType() && v.Type().HasAttribute(st.Name) && v.IsKnown() && !v.IsNull() {
				v = v.GetAttr(st.Name)
			}
		case cty.IndexStep:
			ty := v.Type()
			switch {
			case ty.IsSetType():
				b.WriteString("[*]")
				v = st.Key // a set's element is its own key
				continue
			case st.Key.Type() == cty.String && st.Key.IsKnown() && !st.Key.IsNull():
				b.WriteString("[" + strconv.Quote(st.Key.AsString()) + "]")
			case st.Key.Type() == cty.Number && st.Key.IsKnown() && !st.Key.IsNull():
				b.WriteString("[" + st.Key.AsBigFloat().Text('f', -1) + "]")
			default:
				b.WriteString("[*]")
			}
			if (ty.IsListType() || ty.IsMapType() || ty.IsTupleType()) && v.IsKnown() && !v.IsNull() {
				if hk := v.HasIndex(st.Key); hk.IsKnown() && hk.True() {
					v = v.Index(st.Key)
				}
			}
		}
	}
	return b.String()
}
