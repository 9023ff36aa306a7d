package config

import (
	"fmt"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// EachItem is one instance of an include with for_each.
type EachItem struct {
	Key   string
	Value cty.Value
}

// decodeForEach reads for_each: a literal list or set of strings (key and
// value are the string), or a map or object (key and value are the
// element's). It must be known when the runbook is parsed, so it may not
// refer to variables: the instances are steps of their own, with names.
func decodeForEach(a *hcl.Attribute) ([]EachItem, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	bad := func(detail string) ([]EachItem, hcl.Diagnostics) {
		return nil, append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid for_each",
			Detail:   detail,
			Subject:  a.Expr.Range().Ptr(),
		})
	}
	if diags.HasErrors() {
		return bad("for_each must be a literal list of names or a literal map: the included steps are named after its keys when the runbook is read, before any variable has a value.")
	}
	if v.IsNull() || !v.IsWhollyKnown() {
		return bad("for_each must be known when the runbook is read.")
	}
	ty := v.Type()
	var items []EachItem
	switch {
	case ty.IsListType() || ty.IsSetType() || ty.IsTupleType():
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if e.Type() != cty.String || e.IsNull() {
				return bad("a for_each list must hold strings: each one names an instance.")
			}
			items = append(items, EachItem{Key: e.AsString(), Value: e})
		}
	case ty.IsMapType() || ty.IsObjectType():
		m := v.AsValueMap()
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			items = append(items, EachItem{Key: k, Value: m[k]})
		}
	default:
		return bad("for_each must be a list of names or a map.")
	}
	seen := map[string]bool{}
	for _, it := range items {
		if !validName(it.Key) {
			return bad(fmt.Sprintf("the for_each key %q cannot be part of a step name: use letters, digits, underscores and dashes.", it.Key))
		}
		if seen[it.Key] {
			return bad(fmt.Sprintf("the for_each key %q appears twice.", it.Key))
		}
		seen[it.Key] = true
	}
	if len(items) == 0 {
		items = []EachItem{}
	}
	return items, diags
}

// instantiate makes sub's steps one for_each instance: every step is
// renamed <name>_<key>, references between them (step.X, per_host.X,
// depends_on) follow, and each.key / each.value are set for them.
func instantiate(sub *Runbook, item EachItem) hcl.Diagnostics {
	renamed := map[string]string{}
	for _, s := range sub.Steps {
		renamed[s.Name] = s.Name + "_" + item.Key
	}
	each := cty.ObjectVal(map[string]cty.Value{"key": cty.StringVal(item.Key), "value": item.Value})
	for _, s := range sub.Steps {
		s.Name = renamed[s.Name]
		s.Each = each
		// The step's body holds every attribute of the block, the
		// meta-arguments too (they are only hidden from the module), so one
		// walk renames them all.
		if b, ok := s.Body.(*hclsyntax.Body); ok {
			renameRefs(b, renamed)
		}
		for i, tr := range s.DependsOn {
			s.DependsOn[i] = renameTraversal(tr, renamed)
		}
	}
	return nil
}

// renameRefs rewrites step.X and per_host.X inside n for the renamed steps.
func renameRefs(n hclsyntax.Node, renamed map[string]string) {
	hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
		if st, ok := n.(*hclsyntax.ScopeTraversalExpr); ok {
			st.Traversal = renameTraversal(st.Traversal, renamed)
		}
		return nil
	})
}

func renameTraversal(tr hcl.Traversal, renamed map[string]string) hcl.Traversal {
	if len(tr) < 2 || (tr.RootName() != "step" && tr.RootName() != "per_host") {
		return tr
	}
	a, ok := tr[1].(hcl.TraverseAttr)
	if !ok {
		return tr
	}
	to, ok := renamed[a.Name]
	if !ok {
		return tr
	}
	out := append(hcl.Traversal(nil), tr...)
	out[1] = hcl.TraverseAttr{Name: to, SrcRange: a.SrcRange}
	return out
}
