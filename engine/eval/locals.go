package eval

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/config"
)

// EvalLocals evaluates the runbook's locals in dependency order with base
// (var, group, inventory, path) as context. A cycle between locals is an
// error naming the chain.
func EvalLocals(rb *config.Runbook, base *hcl.EvalContext) (map[string]cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	byName := map[string]*config.Local{}
	for _, l := range rb.Locals {
		byName[l.Name] = l
	}
	vals := map[string]cty.Value{}
	state := map[string]int{} // 0 new, 1 visiting, 2 done
	var stack []string

	var visit func(l *config.Local)
	visit = func(l *config.Local) {
		switch state[l.Name] {
		case 2:
			return
		case 1:
			i := indexOf(stack, l.Name)
			chain := append(append([]string{}, stack[i:]...), l.Name)
			for j := range chain {
				chain[j] = "local." + chain[j]
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Reference cycle between locals",
				Detail:   "These local values refer to each other in a cycle: " + strings.Join(chain, " -> ") + ".",
				Subject:  l.DeclRange.Ptr(),
			})
			vals[l.Name] = cty.DynamicVal
			return
		}
		state[l.Name] = 1
		stack = append(stack, l.Name)
		for _, tr := range l.Expr.Variables() {
			if tr.RootName() != "local" || len(tr) < 2 {
				continue
			}
			a, ok := tr[1].(hcl.TraverseAttr)
			if !ok {
				continue
			}
			dep, ok := byName[a.Name]
			if !ok {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Reference to undeclared local value",
					Detail:   fmt.Sprintf("A local value named %q has not been declared.%s", a.Name, suggest(a.Name, keys(byName))),
					Subject:  tr.SourceRange().Ptr(),
				})
				continue
			}
			visit(dep)
		}
		stack = stack[:len(stack)-1]
		ctx := base.NewChild()
		ctx.Variables = map[string]cty.Value{"local": cty.ObjectVal(copyMap(vals))}
		v, d := l.Expr.Value(ctx)
		diags = append(diags, d...)
		if d.HasErrors() {
			v = cty.DynamicVal
		}
		vals[l.Name] = v
		state[l.Name] = 2
	}
	for _, l := range rb.Locals {
		visit(l)
	}
	return vals, diags
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return 0
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func copyMap(m map[string]cty.Value) map[string]cty.Value {
	out := make(map[string]cty.Value, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func suggest(name string, candidates []string) string {
	if s := DidYouMean(name, candidates); s != "" {
		return fmt.Sprintf(" Did you mean %q?", s)
	}
	return ""
}
