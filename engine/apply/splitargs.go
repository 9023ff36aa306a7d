package apply

import (
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

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
// It handles the shape every module's spec has, an object of attribute
// specs; newSplitArgs returns nil for any other.
type splitArgs struct {
	attrs      int // how many keys the object has
	constSpec  hcldec.ObjectSpec
	constBody  contentBody
	hostSpec   hcldec.ObjectSpec
	hostBody   contentBody
	bodyDiags  hcl.Diagnostics // taking the content: unknown or missing arguments
	constOnce  sync.Once
	constVals  map[string]cty.Value
	constDiags hcl.Diagnostics
	constKnown bool // every value of constVals is wholly known
}

// newSplitArgs prepares body for decoding with spec on many hosts, or
// returns nil when spec is not an object of attribute specs.
func newSplitArgs(body hcl.Body, spec hcldec.Spec) *splitArgs {
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
	}
	sa.constBody = contentBody{&hcl.BodyContent{Attributes: constAttrs, MissingItemRange: content.MissingItemRange}}
	sa.hostBody = contentBody{&hcl.BodyContent{Attributes: hostAttrs, MissingItemRange: content.MissingItemRange}}
	return sa
}

// decode decodes the arguments on one host: shared is the step's context
// (the hosts' common part), hctx the host's. known is the value's
// IsWhollyKnown, asked of the shared part once.
func (sa *splitArgs) decode(shared, hctx *hcl.EvalContext) (val cty.Value, diags hcl.Diagnostics, known bool) {
	sa.constOnce.Do(func() {
		sa.constKnown = true
		if len(sa.constSpec) == 0 {
			return
		}
		v, diags := hcldec.Decode(sa.constBody, sa.constSpec, shared)
		sa.constVals, sa.constDiags, sa.constKnown = v.AsValueMap(), diags, v.IsWhollyKnown()
	})
	vals := make(map[string]cty.Value, sa.attrs)
	for k, v := range sa.constVals {
		vals[k] = v
	}
	// Key by key, as hcldec's ObjectSpec does, without making an object of
	// the per-host part only to take it apart again.
	var hostDiags hcl.Diagnostics
	known = sa.constKnown
	for k, child := range sa.hostSpec {
		v, diags := hcldec.Decode(sa.hostBody, child, hctx)
		vals[k] = v
		hostDiags = append(hostDiags, diags...)
		known = known && v.IsWhollyKnown()
	}
	if n := len(sa.bodyDiags) + len(sa.constDiags) + len(hostDiags); n > 0 {
		diags = make(hcl.Diagnostics, 0, n)
		diags = append(append(append(diags, sa.bodyDiags...), sa.constDiags...), hostDiags...)
	}
	return cty.ObjectVal(vals), diags, known
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
