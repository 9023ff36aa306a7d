package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/inventory/internal/hclfast"
)

// diffInventories are HCL inventories for the differential tests: literals,
// expressions, functions (there are none: an error), defaults and group
// precedence, connection settings, gpfs_cluster blocks, and broken files.
var diffInventories = map[string]string{
	"literals.hcl": `defaults {
  user = "root"
  port = 2222
  vars = { site = "lab", n = 1.5, big = 1e30, tiny = 0.1, yes = true, nothing = null, s = "caf\u00e9 e\u0301" }
}
group "g" {
  vars = { list = ["a", 1, true], nested = { b = [1, 2], c = { d = "e" } }, empty = [], none = {} }
}
host "h1" {
  address = "10.0.0.1"
  groups  = ["g"]
  vars    = { dup = 1, dup = "2", "quoted key" = 3 }
}
host "h2" {
  vars = { null = "k", true = "k2" }
}
host "h3" {
  vars = { café = 4, "e\u0301" = 5 }
}
host "h4" {
  vars = { "e\u0301" = 5, café = 6, café = 7 }
}
`,
	"expressions.hcl": `defaults {
  port            = 20 + 2
  connect_timeout = 5
  vars = { a = "x${"y"}", b = true ? 1 : 2, c = [for x in ["p", "q"] : upper(x)], d = 3 * 7, e = ("k") }
}
host "h[1:3]" {
  address = "10.0.1.[1:3]"
  groups  = ["g${1}", "plain"]
  vars    = { (("key")) = 1, "${"k"}2" = 2, list = ["a", "${"b"}"], obj = { x = 1 + 1 } }
}
group "g1" {
  children = ["child"]
  vars     = merge({ a = 1 }, { b = 2 })
}
group "child" {
  hosts = ["h4", "h[5:6]"]
}
group "plain" {}
`,
	"functions.hcl": `host "h1" {
  vars = { a = upper("x") }
}
`,
	"precedence.hcl": `defaults {
  user          = "d"
  identity_file = ["id_a", "/abs/id_b"]
  known_hosts   = "kh"
  become        = true
  vars          = { x = "defaults", y = "defaults", z = "defaults" }
}
group "all" {
  port = 2200
  vars = { x = "all", y = "all" }
}
group "alpha" {
  user = "alpha"
  vars = { x = "alpha", w = "alpha" }
}
group "beta" {
  become          = false
  identity_file   = "id_beta"
  connect_timeout = "3s"
  vars            = { x = "beta", w = "beta" }
}
group "parent" {
  children                 = ["zchild"]
  strict_host_key_checking = false
  vars                     = { v = "parent", x = "parent" }
}
group "zchild" {
  strict_host_key_checking = "accept-new"
  vars                     = { v = "zchild" }
}
host "h1" {
  groups = ["beta", "alpha"]
}
host "h2" {
  groups = ["zchild", "alpha"]
  vars   = { z = "h2" }
}
host "h3" {
  groups      = ["alpha", "beta"]
  user        = "h3"
  proxy_jump  = "bastion"
  become_user = "admin"
  ssh_config  = "cfg"
}
host "h4" {}
host "h5" {
  groups = ["zchild", "alpha"]
  vars   = { ansible_host = "10.9.9.9" }
}
`,
	"gpfs.hcl": `defaults {
  user = "root"
}
gpfs_cluster {
  admin       = "gpfs01.mgmt"
  short_names = true
}
host "gpfs02" {
  address = "192.168.1.2"
  groups  = ["racked"]
  vars    = { rack = "r7", gpfs_designation = "mine" }
}
group "siteA" {
  vars = { site = "A" }
}
host "bastion" {}
`,
	"unknown-arg.hcl": `host "h1" {
  addres = "10.0.0.1"
}
`,
	"nested-block.hcl": `host "h1" {
  vars {
    a = 1
  }
}
`,
	"bad-values.hcl": `defaults {
  port = "x"
  vars = ["not", "an", "object"]
}
host "h1" {
  groups  = ["ok", 1, "bad name"]
  address = ["a"]
  vars    = { a.b = 1 }
}
host "h2" {
  vars = { (null) = 1, (["l"]) = 2 }
}
host "h1" {}
`,
	"syntax.hcl": `host "h1" {
  address = "10.0.0.1
}
`,
	"big.hcl": bigInventory(120),
}

// diffCases writes the inventories above and lists them with the HCL
// fixtures.
func diffCases(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for name, src := range diffInventories {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, kind := range []string{"valid", "errors"} {
		m, err := filepath.Glob(filepath.Join("testdata", "hcl", kind, "*.hcl"))
		if err != nil || len(m) == 0 {
			t.Fatalf("no HCL %s fixtures: %v", kind, err)
		}
		paths = append(paths, m...)
	}
	return paths
}

// loadEvaluated loads path with every literal fast path, the per-group
// memo of build and the literal-subset parser (hclfast) turned off: the
// load as it was before them, every file parsed by hclsyntax.
func loadEvaluated(path string) (*Inventory, hcl.Diagnostics) {
	evaluateAll, parseWithHCLSyntax = true, true
	defer func() { evaluateAll, parseWithHCLSyntax = false, false }()
	return Load(path)
}

// TestFastParserTakesInventories: the literal-subset parser takes the
// common inventories among the differential cases, so that
// TestLiteralPathsAsEvaluated compares it with hclsyntax rather than
// hclsyntax with itself.
func TestFastParserTakesInventories(t *testing.T) {
	paths := diffCases(t)
	taken := 0
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, ok := hclfast.Parse(src, path)
		if ok {
			taken++
		}
		base := filepath.Base(path)
		if base == "big.hcl" || strings.Contains(path, filepath.Join("hcl", "valid")) {
			if !ok {
				t.Errorf("%s: the fast parser declined a common inventory", path)
			}
		}
	}
	t.Logf("fast parser took %d of %d inventories", taken, len(paths))
}

// TestLiteralPathsAsEvaluated loads every inventory above and every HCL
// fixture with the fast paths and without them: the inventories (hosts,
// groups, values with their types and number precision, ranges) and the
// diagnostics must be the same, and so must the inventory once GPFS nodes
// are merged.
func TestLiteralPathsAsEvaluated(t *testing.T) {
	for _, path := range diffCases(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want, wantDiags := loadEvaluated(path)
			got, gotDiags := Load(path)
			requireSameLoad(t, want, wantDiags, got, gotDiags)
			if got != nil && len(got.GPFS) > 0 {
				wm, wd := want.WithGPFS([]*GPFSCluster{labCluster()})
				gm, gd := got.WithGPFS([]*GPFSCluster{labCluster()})
				requireSameLoad(t, wm, wd, gm, gd)
			}
		})
	}
}

// requireSameLoad fails unless two loads gave the same inventory and
// diagnostics.
func requireSameLoad(t *testing.T, want *Inventory, wantDiags hcl.Diagnostics, got *Inventory, gotDiags hcl.Diagnostics) {
	t.Helper()
	if diff := cmp.Diff(diagRows(wantDiags), diagRows(gotDiags)); diff != "" {
		t.Errorf("diagnostics differ (-want +got):\n%s", diff)
	}
	if (want == nil) != (got == nil) {
		t.Fatalf("inventory: want %v, got %v", want != nil, got != nil)
	}
	if want == nil {
		return
	}
	opts := cmp.Options{cmp.Comparer(sameValue), cmpopts.IgnoreUnexported(Inventory{})}
	if diff := cmp.Diff(want, got, opts); diff != "" {
		t.Errorf("inventory differs (-want +got):\n%s", diff)
	}
	if !cmp.Equal(want.index(), got.index()) {
		t.Errorf("host index differs")
	}
	if (want.reparse == nil) != (got.reparse == nil) || (want.regpfs == nil) != (got.regpfs == nil) {
		t.Errorf("GPFS re-parse hooks differ")
	}
}

// diagRows is what a diagnostic shows: severity, summary, detail and
// ranges.
func diagRows(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		row := fmt.Sprintf("%d|%s|%s", d.Severity, d.Summary, d.Detail)
		if d.Subject != nil {
			row += fmt.Sprintf("|%s", rangeText(*d.Subject))
		}
		if d.Context != nil {
			row += fmt.Sprintf("|ctx %s", rangeText(*d.Context))
		}
		out = append(out, row)
	}
	return out
}

func rangeText(r hcl.Range) string {
	return fmt.Sprintf("%s:%d,%d,%d-%d,%d,%d", r.Filename, r.Start.Line, r.Start.Column, r.Start.Byte, r.End.Line, r.End.Column, r.End.Byte)
}

// sameValue is cty equality that also holds types, marks, nulls, unknowns
// and the precision of numbers to be the same.
func sameValue(a, b cty.Value) bool {
	if !a.Type().Equals(b.Type()) || a.IsMarked() != b.IsMarked() || a.IsKnown() != b.IsKnown() {
		return false
	}
	if a.IsMarked() {
		am, bm := a.Marks(), b.Marks()
		if !am.Equal(bm) {
			return false
		}
		a, _ = a.Unmark()
		b, _ = b.Unmark()
	}
	if !a.IsKnown() || a.IsNull() || b.IsNull() {
		return a.IsNull() == b.IsNull()
	}
	ty := a.Type()
	switch {
	case ty == cty.Number:
		af, bf := a.AsBigFloat(), b.AsBigFloat()
		return af.Cmp(bf) == 0 && af.Prec() == bf.Prec() && af.Mode() == bf.Mode()
	case ty.IsPrimitiveType():
		return a.RawEquals(b)
	}
	if a.LengthInt() != b.LengthInt() {
		return false
	}
	ai, bi := a.ElementIterator(), b.ElementIterator()
	for ai.Next() && bi.Next() {
		ak, av := ai.Element()
		bk, bv := bi.Element()
		if !sameValue(ak, bk) || !sameValue(av, bv) {
			return false
		}
	}
	return true
}

// The differential test must see a difference where there is one.
func TestSameValueTellsApart(t *testing.T) {
	one := cty.NumberIntVal(1)
	hcl1, _ := cty.ParseNumberVal("1")
	pairs := [][2]cty.Value{
		{cty.StringVal("a"), cty.StringVal("b")},
		{one, cty.StringVal("1")},
		{cty.TupleVal([]cty.Value{one}), cty.ListVal([]cty.Value{one})},
		{cty.ObjectVal(map[string]cty.Value{"a": one}), cty.MapVal(map[string]cty.Value{"a": one})},
		{cty.NullVal(cty.String), cty.StringVal("")},
		{cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{one, cty.True})}), cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{one, cty.False})})},
	}
	if one.AsBigFloat().Prec() != hcl1.AsBigFloat().Prec() {
		pairs = append(pairs, [2]cty.Value{one, hcl1})
	}
	for _, p := range pairs {
		if sameValue(p[0], p[1]) {
			t.Errorf("%#v and %#v taken as the same", p[0], p[1])
		}
		if !sameValue(p[0], p[0]) {
			t.Errorf("%#v not the same as itself", p[0])
		}
	}
}

// TestBuildMemoAsBefore loads every inventory of the Ansible corpus and
// the INI and YAML fixtures with the per-group-set resolution of build and
// without it (evaluateAll): the same inventory and diagnostics. (The
// Ansible readers share build with HCL; groups, group_vars/ and
// ansible_group_priority all go through it.)
func TestBuildMemoAsBefore(t *testing.T) {
	manifest, err := os.ReadFile(filepath.Join("testdata", "ansible-corpus", "MANIFEST"))
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, line := range strings.Split(string(manifest), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			paths = append(paths, filepath.Join("testdata", "ansible-corpus", f[0]))
		}
	}
	for _, kind := range []string{"ini", "yaml"} {
		m, _ := filepath.Glob(filepath.Join("testdata", kind, "*", "*"))
		paths = append(paths, m...)
	}
	if len(paths) < 50 {
		t.Fatalf("only %d inventories", len(paths))
	}
	for _, path := range paths {
		t.Run(path, func(t *testing.T) {
			want, wantDiags := loadEvaluated(path)
			got, gotDiags := Load(path)
			requireSameLoad(t, want, wantDiags, got, gotDiags)
		})
	}
}
