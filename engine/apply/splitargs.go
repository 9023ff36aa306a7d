package apply

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/customdecode"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"

	"github.com/provadev/prova/engine/eval"
)

// splitArgs decodes the arguments of a step whose arguments read the host
// on many hosts, without decoding the whole body on each: the body's
// content is taken once, the attributes that read nothing of the host are
// decoded once for the step, and per host only the attributes that do.
// Each part is decoded by hcldec with the module's own specs, so values
// and diagnostics are what hcldec.Decode of the whole body gives (an
// attribute's value depends only on the names its expression reads).
// Per-host attributes that are string templates render through
// eval.FastTemplate, which gives the same value and diagnostics.
// A per-host attribute of a plain attribute spec whose expression has a
// compiled form (eval.Compiled: a template, a traversal of host.* or
// step.*) is evaluated from it on each host, without the host's context
// and without hcldec: the value converted to the spec's type as
// hcldec.AttrSpec converts it, checked by the spec's ValidateSpec
// function when it has one. Whenever the compiled form gives no value,
// the conversion fails or the check has diagnostics, that attribute is
// decoded by hcldec in the host's context, so diagnostics are hcldec's.
// It handles the shape every module's spec has, an object of attribute
// specs; newSplitArgs returns nil for any other.
type splitArgs struct {
	attrs      int // how many keys the object has
	constSpec  hcldec.ObjectSpec
	constBody  contentBody
	hostSpec   hcldec.ObjectSpec
	hostBody   contentBody
	hostAttrs  []hostAttr      // hostSpec's keys, each with its compiled form
	bodyDiags  hcl.Diagnostics // taking the content: unknown or missing arguments
	constOnce  sync.Once
	constVals  map[string]cty.Value
	constDiags hcl.Diagnostics
	constKnown bool // every value of constVals is wholly known
	// scratch holds maps of the object's attributes to make the object
	// from (cty.ObjectVal copies them), reused from host to host.
	scratch sync.Pool
}

// hostAttr is one per-host argument: its key and spec, and when its spec
// is a plain attribute (an AttrSpec, alone or in a ValidateSpec) whose
// expression compiles, the compiled form, the attribute's type and the
// ValidateSpec's function (nil without one).
type hostAttr struct {
	key      string
	spec     hcldec.Spec
	compiled *eval.Compiled
	ty       cty.Type
	validate func(cty.Value) hcl.Diagnostics
}

// compiledAttr returns the plain attribute spec of child and its
// ValidateSpec function, or nil when child is anything else or its type
// has a custom expression decoder (hcldec then does not evaluate).
func compiledAttr(child hcldec.Spec) (*hcldec.AttrSpec, func(cty.Value) hcl.Diagnostics) {
	var validate func(cty.Value) hcl.Diagnostics
	if v, ok := child.(*hcldec.ValidateSpec); ok {
		child, validate = v.Wrapped, v.Func
		if validate == nil {
			return nil, nil
		}
	}
	as, ok := child.(*hcldec.AttrSpec)
	if !ok || customdecode.CustomExpressionDecoderForType(as.Type) != nil {
		return nil, nil
	}
	return as, validate
}

// newSplitArgs prepares body for decoding with spec on many hosts of step
// ss, or returns nil when spec is not an object of attribute specs.
func newSplitArgs(body hcl.Body, spec hcldec.Spec, ss *eval.StepScope) *splitArgs {
	var obj hcldec.ObjectSpec
	switch s := spec.(type) {
	case hcldec.ObjectSpec:
		obj = s
	case *hcldec.ObjectSpec:
		obj = *s
	default:
		return nil
	}
	schema := hcldec.ImpliedSchema(obj)
	if len(schema.Blocks) > 0 {
		return nil
	}
	content, diags := body.Content(schema)
	sa := &splitArgs{attrs: len(obj), constSpec: hcldec.ObjectSpec{}, hostSpec: hcldec.ObjectSpec{}, bodyDiags: diags}
	constAttrs, hostAttrs := hcl.Attributes{}, hcl.Attributes{}
	for key, child := range obj {
		into, spec, perHost := constAttrs, sa.constSpec, false
		if eval.RefsOf(hcldec.Variables(body, child)).VaryByHost() {
			into, spec, perHost = hostAttrs, sa.hostSpec, true
		}
		spec[key] = child
		for _, as := range hcldec.ImpliedSchema(child).Attributes {
			a, ok := content.Attributes[as.Name]
			if !ok {
				continue
			}
			if perHost {
				// Rendered on every host: templates without cty's
				// number formatting where that gives the same string.
				fast := *a
				fast.Expr = eval.FastTemplate(a.Expr)
				a = &fast
			}
			into[as.Name] = a
		}
		if perHost {
			ha := hostAttr{key: key, spec: child}
			if as, validate := compiledAttr(child); as != nil {
				if a, ok := content.Attributes[as.Name]; ok {
					if ha.compiled = ss.Compile(a.Expr); ha.compiled != nil {
						ha.ty, ha.validate = as.Type, validate
					}
				}
			}
			sa.hostAttrs = append(sa.hostAttrs, ha)
		}
	}
	sa.constBody = contentBody{&hcl.BodyContent{Attributes: constAttrs, MissingItemRange: content.MissingItemRange}}
	sa.hostBody = contentBody{&hcl.BodyContent{Attributes: hostAttrs, MissingItemRange: content.MissingItemRange}}
	return sa
}

// decode decodes the arguments on host: shared is the step's context
// (the hosts' common part), hctx gives the host's, built only when an
// attribute is decoded by hcldec. known is the value's IsWhollyKnown,
// asked of the shared part once.
func (sa *splitArgs) decode(shared *hcl.EvalContext, host string, hctx func() *hcl.EvalContext) (val cty.Value, diags hcl.Diagnostics, known bool) {
	sa.decodeShared(shared)
	vals, _ := sa.scratch.Get().(map[string]cty.Value)
	if vals == nil {
		vals = make(map[string]cty.Value, sa.attrs)
		for k, v := range sa.constVals {
			vals[k] = v
		}
	}
	// A map from the pool holds the shared values already and the
	// per-host keys, each overwritten below.
	// Key by key, as hcldec's ObjectSpec does, without making an object of
	// the per-host part only to take it apart again.
	var hostDiags hcl.Diagnostics
	known = sa.constKnown
	for _, ha := range sa.hostAttrs {
		v, ok := ha.value(host)
		if !ok {
			var diags hcl.Diagnostics
			v, diags = hcldec.Decode(sa.hostBody, ha.spec, hctx())
			hostDiags = append(hostDiags, diags...)
		}
		vals[ha.key] = v
		known = known && v.IsWhollyKnown()
	}
	if n := len(sa.bodyDiags) + len(sa.constDiags) + len(hostDiags); n > 0 {
		diags = make(hcl.Diagnostics, 0, n)
		diags = append(append(append(diags, sa.bodyDiags...), sa.constDiags...), hostDiags...)
	}
	val = cty.ObjectVal(vals)
	sa.scratch.Put(vals)
	return val, diags, known
}

// decodeShared decodes the attributes that read nothing of the host, once
// for the step, in shared, the step's context.
func (sa *splitArgs) decodeShared(shared *hcl.EvalContext) {
	sa.constOnce.Do(func() {
		sa.constKnown = true
		if len(sa.constSpec) == 0 {
			return
		}
		v, diags := hcldec.Decode(sa.constBody, sa.constSpec, shared)
		sa.constVals, sa.constDiags, sa.constKnown = v.AsValueMap(), diags, v.IsWhollyKnown()
	})
}

// sharedClean reports whether the step's shared part has no diagnostics
// (taking the body's content and decoding the shared attributes, which it
// does once) and is wholly known: only then can a host's arguments be
// told from its per-host attributes alone. (A step whose shared part is
// not clean never decodes a struct whole, so splitTyped has no base for
// it either: the check is the one that does not rest on that.)
func (sa *splitArgs) sharedClean(shared *hcl.EvalContext) bool {
	sa.decodeShared(shared)
	return sa.constKnown && len(sa.bodyDiags) == 0 && len(sa.constDiags) == 0
}

// value is what hcldec decodes the attribute to on host when that has no
// diagnostics, from its compiled form; ok is false when the attribute is
// to be decoded by hcldec.
func (ha hostAttr) value(host string) (cty.Value, bool) {
	v, ok := ha.compiled.Value(host)
	if !ok {
		return cty.NilVal, false
	}
	// What hcldec.AttrSpec does with the expression's value.
	v, err := convert.Convert(v, ha.ty)
	if err != nil {
		return cty.NilVal, false
	}
	if ha.validate != nil && len(ha.validate(v)) > 0 {
		return cty.NilVal, false
	}
	return v, true
}

// contentBody is a body whose content has been taken already: hcldec
// decodes from it without asking the syntax tree again. Its content holds
// only the attributes of the spec it is decoded with, and the arguments
// it lacks or has too many were reported when the content was taken.
type contentBody struct{ c *hcl.BodyContent }

func (b contentBody) Content(*hcl.BodySchema) (*hcl.BodyContent, hcl.Diagnostics) { return b.c, nil }

func (b contentBody) PartialContent(*hcl.BodySchema) (*hcl.BodyContent, hcl.Body, hcl.Diagnostics) {
	return b.c, hcl.EmptyBody(), nil
}

func (b contentBody) JustAttributes() (hcl.Attributes, hcl.Diagnostics) { return b.c.Attributes, nil }

func (b contentBody) MissingItemRange() hcl.Range { return b.c.MissingItemRange }
