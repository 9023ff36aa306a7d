package eval

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// The memo against the plain evaluation: random expressions over random
// hosts (host variables that are strings, numbers at several precisions,
// nulls, plain and refined unknowns, sensitive values; an earlier step's
// result planned, planned to change, skipped, unknown, recorded as a
// value or missing), each evaluated on every host through a Memo and through hcl in
// the host's own context. Value (with marks and refinements) and
// diagnostics (summary, detail, ranges, and the host the diagnostic's
// context names) must be the same on every host, whatever the order of
// the hosts.
//
// The compiled form (StepScope.Compile) is held to the same: wherever it
// gives a value, that value must be hcl's and hcl must give no
// diagnostics.
func TestMemoMatchesPlainEvaluation(t *testing.T) {
	hits, compiled := 0, 0
	for seed := range uint64(100) {
		h, c := checkMemoSeed(t, seed)
		hits, compiled = hits+h, compiled+c
	}
	// Most expressions read something many hosts share: a memo that never
	// hit would test nothing; nor would a compiled form that never gave
	// a value.
	if hits < 1000 {
		t.Fatalf("the memo hit %d times over 100 seeds", hits)
	}
	if compiled < 1000 {
		t.Fatalf("the compiled form gave %d values over 100 seeds", compiled)
	}
	t.Logf("%d hits, %d compiled values", hits, compiled)
}

func FuzzMemoMatchesPlainEvaluation(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkMemoSeed(t, seed) })
}

// checkMemoSeed returns how often the memos hit and how often the
// compiled form gave a value.
func checkMemoSeed(t *testing.T, seed uint64) (int, int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 15))
	hosts, infos := memoHosts(rng)
	ty := ResultType(cty.Object(map[string]cty.Type{"out": cty.String}))
	s := NewScope(map[string]cty.Value{"x": cty.StringVal("r1")}, infos, map[string][]string{"g1": {"h0"}}, "", map[string]cty.Type{"prev": ty})
	s.Locals = map[string]cty.Value{"n": cty.NumberIntVal(3)}
	for name, hv := range hosts {
		// Values HostInfo cannot carry (sets, marks, unknowns).
		s.hostVals[name] = hv
		s.hostVars[name] = map[string]cty.Value{"host": hv}
	}
	results := NewResults()
	names := make([]string, 0, len(hosts))
	for name := range hosts {
		names = append(names, name)
	}
	// Map order is random; make the hosts' order depend on the seed only.
	sortStrings(names)
	for _, h := range names {
		switch rng.IntN(6) {
		case 0:
			results.SetPlanned("prev", h, ty, false)
		case 1:
			results.SetPlanned("prev", h, ty, true)
		case 2:
			results.SetSkipped("prev", h, ty)
		case 3:
			v := SkippedResult(ty, h)
			m := v.AsValueMap()
			m["skipped"], m["rc"] = cty.False, cty.NumberIntVal(int64(rng.IntN(2)))
			m["stdout"] = cty.StringVal([]string{"", "ok", "e\u0301"}[rng.IntN(3)])
			if rng.IntN(4) == 0 {
				m["stdout"] = m["stdout"].Mark("sensitive")
			}
			results.Set("prev", h, cty.ObjectVal(m))
		case 4:
			results.SetUnknown("prev", h, ty)
		}
		// case 5: no result (the step did not run there).
	}
	hits, compiledVals := 0, 0
	// A few fixed expressions besides the random ones, each aimed at one
	// thing the key must keep apart: the precision a number carries into
	// arithmetic, a planned result's change, refinements, marks.
	fixed := []string{"host.vars.idx / local.n", "step.prev.changed", "host.vars.rack != null", `"${host.vars.rack}"`, "step.prev.stdout",
		// The shapes the compiled form takes: templates of literals,
		// host.*, step.* and shared names; plain traversals.
		`"echo ${host.name} ${host.vars.idx}"`, `"${step.prev.stdout}/${var.x}-${local.n}"`, `"${host.vars.flag}${step.prev.rc}"`,
		"host.vars.idx", `"x${host.groups[0]}${step.prev.changed}${upper(var.x)}"`, `"${host.vars}"`,
		// Operations over operations of host.* alone (the scale
		// runbook's when): what each operand gives must stay apart.
		`host.vars.rack != "r0" && contains(host.groups, "g2") == false`, `(host.vars.rack == "r1") == (host.vars.idx == 2)`,
		`host.vars.flag || host.vars.rack == "r1"`, `(host.vars.rack != "r0") || contains(host.groups, "g1") || host.vars.flag`}
	for i := range 6 + len(fixed) {
		src := memoExpr(rng, 3)
		if i < len(fixed) {
			src = fixed[i]
		}
		expr, diags := hclsyntax.ParseExpression([]byte(src), "x.hcl", hcl.InitialPos)
		if diags.HasErrors() {
			t.Fatalf("seed %d: %s does not parse: %s", seed, src, diags)
		}
		ss := s.Step(results, RefsOf(expr.Variables()), cty.NilVal)
		memo := NewMemo[memoResult](ss, expr.Variables())
		exprMemo := NewExprMemo(ss, expr)
		comp := ss.Compile(expr)
		order := append([]string(nil), names...)
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, h := range append(order, order...) {
			// The memo first: the plain evaluation makes the host's
			// result, which the memo's key must find without making it.
			evaluated := false
			got := memo.Do(h, func() (memoResult, bool) {
				evaluated = true
				v, d := expr.Value(ss.Host(h, cty.NilVal))
				return memoResult{v, d}, len(d) == 0
			})
			if !evaluated {
				hits++
			}
			ev, ed := exprMemo.Value(h, func() *hcl.EvalContext { return ss.Host(h, cty.NilVal) })
			want, wantDiags := expr.Value(ss.Host(h, cty.NilVal))
			if !ev.RawEquals(want) {
				t.Fatalf("seed %d, %s on %s: expression memo %#v, plain %#v", seed, src, h, ev, want)
			}
			if g, w := diagSpell(ed), diagSpell(wantDiags); g != w {
				t.Fatalf("seed %d, %s on %s: expression memo diagnostics\n%s\nplain\n%s", seed, src, h, g, w)
			}
			if cv, ok := comp.Value(h); ok {
				compiledVals++
				if !cv.RawEquals(want) || len(wantDiags) > 0 {
					t.Fatalf("seed %d, %s on %s: compiled %#v, plain %#v\n%s", seed, src, h, cv, want, diagSpell(wantDiags))
				}
			}
			if !got.v.RawEquals(want) {
				t.Fatalf("seed %d, %s on %s: memo %#v, plain %#v", seed, src, h, got.v, want)
			}
			if g, w := diagSpell(got.diags), diagSpell(wantDiags); g != w {
				t.Fatalf("seed %d, %s on %s: memo diagnostics\n%s\nplain\n%s", seed, src, h, g, w)
			}
			for _, d := range got.diags {
				if d.EvalContext != nil {
					if hv, ok := d.EvalContext.Variables["host"]; ok && hv.GetAttr("name").AsString() != h {
						t.Fatalf("seed %d, %s on %s: a diagnostic names host %s", seed, src, h, hv.GetAttr("name").AsString())
					}
				}
			}
		}
	}
	return hits, compiledVals
}

type memoResult struct {
	v     cty.Value
	diags hcl.Diagnostics
}

func sortStrings(ss []string) {
	for i := range ss {
		for j := i + 1; j < len(ss); j++ {
			if ss[j] < ss[i] {
				ss[i], ss[j] = ss[j], ss[i]
			}
		}
	}
}

func diagSpell(diags hcl.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%d %q %q %v %v\n", d.Severity, d.Summary, d.Detail, d.Subject, d.Context)
	}
	return b.String()
}

// memoHosts makes 6 to 30 hosts whose variables take few distinct values,
// so that the memo hits.
func memoHosts(rng *rand.Rand) (map[string]cty.Value, []HostInfo) {
	n := 6 + rng.IntN(25)
	pick := func(vs ...cty.Value) cty.Value { return vs[rng.IntN(len(vs))] }
	hosts := map[string]cty.Value{}
	var infos []HostInfo
	for i := range n {
		name := fmt.Sprintf("h%d", i)
		infos = append(infos, HostInfo{Name: name})
		groups := pick(
			cty.ListVal([]cty.Value{cty.StringVal("g1")}),
			cty.ListVal([]cty.Value{cty.StringVal("g1"), cty.StringVal("g2")}),
			cty.ListValEmpty(cty.String),
			cty.SetVal([]cty.Value{cty.StringVal("g1")}),
		)
		vars := map[string]cty.Value{
			"rack": pick(cty.StringVal("r0"), cty.StringVal("r1"), cty.NullVal(cty.String), cty.UnknownVal(cty.String),
				cty.UnknownVal(cty.String).RefineNotNull(), cty.StringVal("r1").Mark("sensitive"), cty.NumberIntVal(1)),
			"idx": pick(cty.NumberIntVal(1), cty.NumberIntVal(2), cty.MustParseNumberVal("2"), cty.MustParseNumberVal("1"),
				cty.NumberVal(new(big.Float).SetPrec(8).SetFloat64(1.0/3)), cty.NumberFloatVal(1.0/3),
				cty.UnknownVal(cty.Number), cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.NumberIntVal(0), true).NewValue()),
			"flag": pick(cty.True, cty.False, cty.UnknownVal(cty.Bool)),
		}
		if rng.IntN(4) == 0 {
			delete(vars, "flag")
		}
		hosts[name] = cty.ObjectVal(map[string]cty.Value{
			"name":    cty.StringVal(name),
			"address": cty.StringVal(name),
			"groups":  groups,
			"vars":    cty.ObjectVal(vars),
		})
	}
	return hosts, infos
}

// memoExpr makes a random expression of depth at most d over what the
// memo keys (host.*, step.prev.*) and what it does not (var, local,
// per_host, literals).
func memoExpr(rng *rand.Rand, d int) string {
	atoms := []string{
		"host.vars.rack", "host.vars.idx", "host.vars.flag", "host.groups", "host.groups[0]", "host.vars",
		"host.name", "step.prev.stdout", "step.prev.changed", "step.prev.rc", "step.prev.skipped",
		"step.prev.host", "step.prev.out", "step.prev", "var.x", "local.n", "per_host.prev", `"r1"`, "1", "2", "3", "true", "null",
	}
	if d == 0 || rng.IntN(4) == 0 {
		return atoms[rng.IntN(len(atoms))]
	}
	a, b := memoExpr(rng, d-1), memoExpr(rng, d-1)
	switch rng.IntN(12) {
	case 0:
		return "(" + a + " == " + b + ")"
	case 1:
		return "(" + a + " != " + b + ")"
	case 2:
		return "(" + a + " && " + b + ")"
	case 3:
		return "(" + a + " + " + b + ")"
	case 4:
		return "contains(" + a + ", " + b + ")"
	case 5:
		return "length(" + a + ")"
	case 6:
		return `"${` + a + `}-${` + b + `}"`
	case 7:
		return "(" + a + " ? " + b + " : " + memoExpr(rng, d-1) + ")"
	case 8:
		return "[for g in " + a + " : upper(g)]"
	case 9:
		return "tostring(" + a + ")"
	case 10:
		return "(" + a + " / " + b + ")"
	}
	return "(" + a + " == null)"
}
