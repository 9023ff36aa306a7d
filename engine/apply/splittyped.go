package apply

import (
	"reflect"
	"sync/atomic"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/gocty"

	"github.com/provadev/prova/engine/module"
)

// splitTyped decodes the argument struct (module.Arguments) of a step
// whose arguments read the host, on each of its hosts, without decoding
// every field with gocty on every host: the first host's struct, decoded
// whole by module.DecodeTyped, is kept as a base; on the other hosts the
// base is copied and only the fields of the per-host arguments are
// decoded again. The other fields hold what the step's shared arguments
// decode to, the same on every host.
//
// gocty decodes an object into a struct attribute by attribute, each into
// its own field, after checks that depend only on the object's attribute
// names (the module's spec keys, the same on every host). A field is set
// to its zero value before it is decoded, as in a new struct. Whenever a
// field does not decode, the host's struct is decoded whole, so errors
// are DecodeTyped's own.
type splitTyped struct {
	m      module.Module
	fields []typedField // per-host arguments and their fields

	// base is the first struct a host decoded whole without error (*T),
	// nil until then. It is the struct handed to that host's module call,
	// which reads a copy (module.Args) and never writes the struct itself.
	base atomic.Pointer[reflect.Value]
}

type typedField struct {
	attr  string
	index int
	// str: the field is a string (or ptr a *string), which a known,
	// unmarked, non-null cty string sets directly, as gocty sets it.
	str, ptr bool
}

// newSplitTyped prepares the typed decoding of m's arguments for a step
// whose per-host arguments are hostAttrs, or returns nil when m has no
// argument struct, or one that is not a pointer to a struct naming every
// per-host argument.
func newSplitTyped(m module.Module, hostAttrs []string) *splitTyped {
	a, ok := m.(module.Arguments)
	if !ok {
		return nil
	}
	t := reflect.TypeOf(a.NewArgs())
	if t == nil || t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		return nil
	}
	byTag := map[string]int{}
	st := t.Elem()
	for i := range st.NumField() {
		if name := st.Field(i).Tag.Get("cty"); name != "" && st.Field(i).IsExported() {
			byTag[name] = i
		}
	}
	st2 := &splitTyped{m: m}
	for _, attr := range hostAttrs {
		i, ok := byTag[attr]
		if !ok {
			return nil
		}
		f := typedField{attr: attr, index: i}
		switch ft := st.Field(i).Type; {
		case ft.Kind() == reflect.String:
			f.str = true
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.String:
			f.str, f.ptr = true, true
		}
		st2.fields = append(st2.fields, f)
	}
	return st2
}

// fromValues returns what module.DecodeTyped returns for a host's wholly
// known arguments whose per-host ones are vals, in the order of the
// fields (the hostAttrs newSplitTyped was given), and whose shared ones
// are the step's: a copy of the base with each per-host field set. ok is
// false when there is no base yet, or when a value is not a known,
// unmarked, non-null string for a string field: the caller then makes the
// arguments' object and decodes it (decode).
func (st *splitTyped) fromValues(vals []cty.Value) (typed any, ok bool) {
	base := st.base.Load()
	if base == nil || len(vals) != len(st.fields) {
		return nil, false
	}
	for i, f := range st.fields {
		if v := vals[i]; !f.str || v.Type() != cty.String || !v.IsKnown() || v.IsNull() || v.IsMarked() {
			return nil, false
		}
	}
	out := reflect.New(base.Type().Elem())
	out.Elem().Set(base.Elem())
	for i, f := range st.fields {
		setString(out.Elem().Field(f.index), f.ptr, vals[i].AsString())
	}
	return out.Interface(), true
}

// setString sets a string field (a *string one when ptr) to s, as gocty
// sets it from a known, unmarked, non-null cty string.
func setString(fv reflect.Value, ptr bool, s string) {
	if ptr {
		p := reflect.New(fv.Type().Elem())
		p.Elem().SetString(s)
		fv.Set(p)
		return
	}
	fv.SetString(s)
}

// decode returns what module.DecodeTyped(m, args) returns, for wholly
// known args of one host of the step.
func (st *splitTyped) decode(args cty.Value) (any, error) {
	if base := st.base.Load(); base != nil && !args.IsMarked() && args.Type().IsObjectType() {
		out := reflect.New(base.Type().Elem())
		out.Elem().Set(base.Elem())
		decoded := true
		for _, f := range st.fields {
			fv := out.Elem().Field(f.index)
			v := args.GetAttr(f.attr)
			if f.str && v.Type() == cty.String && v.IsKnown() && !v.IsNull() && !v.IsMarked() {
				// What gocty does with it, without its reflection walk.
				setString(fv, f.ptr, v.AsString())
				continue
			}
			if v.ContainsMarked() {
				// gocty panics on a mark; DecodeTyped names it.
				decoded = false
				break
			}
			fv.Set(reflect.Zero(fv.Type()))
			if err := gocty.FromCtyValue(v, fv.Addr().Interface()); err != nil {
				decoded = false
				break
			}
		}
		if decoded {
			return out.Interface(), nil
		}
	}
	typed, err := module.DecodeTyped(st.m, args)
	if err == nil && typed != nil {
		v := reflect.ValueOf(typed)
		st.base.CompareAndSwap(nil, &v)
	}
	return typed, err
}
