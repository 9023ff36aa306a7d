package assert

import (
	"context"
	"strconv"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Reads implements module.ReadOnly: assertions never change a host.
func (*Assert) Reads(v cty.Value) string {
	if n := len(decoded(v)); n != 1 {
		return "checks " + strconv.Itoa(n) + " conditions"
	}
	return "checks 1 condition"
}

// Apply evaluates already-decoded arguments. The engine normally calls
// EvalBody instead, whose failure diagnostics also show the expressions.
func (*Assert) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	return respond(decoded(req.Args)), nil
}

// decoded reads the checks from wholly-known decoded arguments.
func decoded(args cty.Value) []result {
	args, _ = args.UnmarkDeep()
	var rs []result
	if c := args.GetAttr("condition"); !c.IsNull() {
		rs = append(rs, result{ok: c.True(), message: str(args.GetAttr("error_message"))})
	}
	blocks := args.GetAttr("check")
	if blocks.IsNull() {
		return rs
	}
	for i, it := 0, blocks.ElementIterator(); it.Next(); i++ {
		_, b := it.Element()
		r := result{ok: b.GetAttr("condition").True(), message: str(b.GetAttr("error_message")), name: str(b.GetAttr("name"))}
		if r.name == "" {
			r.name = blockName(i)
		}
		if m := b.GetAttr("measured"); !m.IsNull() {
			r.measured = render(m)
		}
		if t := b.GetAttr("threshold"); !t.IsNull() {
			r.threshold = render(t)
		}
		rs = append(rs, r)
	}
	return rs
}

func str(v cty.Value) string {
	if v.IsNull() {
		return ""
	}
	return v.AsString()
}

// blockName names the i-th (0-based) check block that has no name.
func blockName(i int) string { return "check " + strconv.Itoa(i+1) }
