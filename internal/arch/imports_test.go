package arch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const mod = "github.com/provadev/prova/"

// file is one Go file of the project with the project packages it imports
// (paths relative to the module).
type file struct {
	pkg, name string
	test      bool
	imports   []string
}

// rule forbids files of packages under from to import packages under any of
// to, except those under except; importers under exemptFrom are not held to
// it. Test files are held to it only when tests
// is set, and then a test file whose name ends in one of crossTests is a
// deliberate exception.
type rule struct {
	from       string
	exemptFrom []string
	to, except []string
	tests      bool
	crossTests []string
	why        string
}

var rules = []rule{
	{from: "engine/", to: []string{"internal/", "modules/", "parse", "runbooks", "lab", "bench"},
		why: "the engine knows no module, parser, evidence or lab"},
	{from: "modules/", to: []string{"engine/transport/", "engine/apply", "engine/program", "internal/cli", "internal/ui", "internal/evidence/", "lab", "runbooks"},
		why: "modules see hosts only through the module contract"},
	{from: "lab", to: []string{"parse", "modules/", "engine/", "internal/ui", "internal/evidence/", "runbooks"}, tests: true, crossTests: []string{"cross_test.go"},
		why: "simulators write text as the real tools do, never from the parsers' model (parse_cross_test.go files are the deliberate cross-tests)"},
	{from: "parse", to: []string{""}, except: []string{"parse", "internal/lazyre"},
		why: "parsers are a leaf library (with internal/lazyre, itself a leaf)"},
	{from: "inventory", to: []string{""}, except: []string{"inventory", "internal/lazyre"},
		why: "the inventory is a leaf library (with internal/lazyre, itself a leaf)"},
	{from: "internal/lazyre", to: []string{""}, except: []string{"internal/lazyre"}, tests: true,
		why: "regexps compiled on first use are a leaf: the parsers, the inventory and the evidence stand on it"},
	{from: "inventory/internal/hclfast", to: []string{""}, except: []string{"inventory/internal/hclfast"},
		why: "the literal-subset HCL parser stands on hcl and cty alone (its tests compare it with hclsyntax on the repository's files)"},
	{from: "lab/sshserve", to: []string{""}, except: []string{"lab/sshserve"}, tests: true,
		why: "the SSH server the lab and the test kits share is a leaf library"},
	{from: "internal/evidence/", to: []string{"internal/ui", "internal/cli"}, tests: true,
		why: "the record owns its format: output observes engine events, evidence does not borrow the console's"},
	{from: "engine/module/moduletest", to: []string{"internal/"}, tests: true,
		why: "the module test kit stands on the engine alone"},
	{from: "", exemptFrom: []string{kits, "internal/testkit/", "bench"}, to: []string{"internal/testkit/", "bench"},
		why: "test kits and benchmarks are imported only by tests"},
}

// kits stands in exemptFrom for the test kits that live beside what they
// test (moduletest, runbooktest, labtest, simtest, the fakes), as
// net/http/httptest does.
const kits = "<kits>"

func isKit(pkg string) bool {
	last := pkg[strings.LastIndex(pkg, "/")+1:]
	return strings.HasSuffix(last, "test") || strings.HasSuffix(last, "fake")
}

// under reports whether the relative path p is at or below prefix: "parse"
// matches parse and parse/x, "parse/" only parse/x, "" every package.
func under(p, prefix string) bool {
	switch {
	case prefix == "":
		return true
	case strings.HasSuffix(prefix, "/"):
		return strings.HasPrefix(p, prefix)
	default:
		return p == prefix || strings.HasPrefix(p, prefix+"/")
	}
}

// listedPackage is one package of the module as go list -json gives it.
type listedPackage struct {
	ImportPath, Dir                    string
	GoFiles, TestGoFiles, XTestGoFiles []string
}

// listModule lists every package of the module (go list -json ../../...).
func listModule(t *testing.T) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "../../...")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("go list: %v\n%s", err, errb.String())
	}
	var ps []listedPackage
	dec := json.NewDecoder(&out)
	for dec.More() {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

func files(t *testing.T) []file {
	t.Helper()
	var fs []file
	fset := token.NewFileSet()
	n := 0
	for _, p := range listModule(t) {
		rel, ok := strings.CutPrefix(p.ImportPath, mod)
		if !ok {
			continue
		}
		n++
		add := func(names []string, test bool) {
			for _, name := range names {
				f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
				if err != nil {
					t.Fatal(err)
				}
				fi := file{pkg: rel, name: name, test: test}
				for _, is := range f.Imports {
					path, _ := strconv.Unquote(is.Path.Value)
					if r, ok := strings.CutPrefix(path, mod); ok {
						fi.imports = append(fi.imports, r)
					}
				}
				fs = append(fs, fi)
			}
		}
		add(p.GoFiles, false)
		add(p.TestGoFiles, true)
		add(p.XTestGoFiles, true)
	}
	if n < 50 {
		t.Fatalf("go list found only %d project packages", n)
	}
	return fs
}

func (r rule) forbids(imp string) bool {
	for _, e := range r.except {
		if under(imp, e) {
			return false
		}
	}
	for _, to := range r.to {
		if under(imp, to) {
			return true
		}
	}
	return false
}

func (r rule) applies(f file) bool {
	if !under(f.pkg, r.from) {
		return false
	}
	for _, e := range r.exemptFrom {
		if under(f.pkg, e) || (e == kits && isKit(f.pkg)) {
			return false
		}
	}
	if f.test {
		if !r.tests {
			return false
		}
		for _, s := range r.crossTests {
			if strings.HasSuffix(f.name, s) {
				return false
			}
		}
	}
	return true
}

func TestImportRules(t *testing.T) {
	var bad []string
	for _, f := range files(t) {
		for _, r := range rules {
			if !r.applies(f) {
				continue
			}
			for _, imp := range f.imports {
				if r.forbids(imp) {
					bad = append(bad, fmt.Sprintf("%s/%s imports %s: %s", f.pkg, f.name, imp, r.why))
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// TestRulesBite makes sure each rule can fail: a file that breaks it is
// caught, so a typo in a prefix cannot silently switch a rule off.
func TestRulesBite(t *testing.T) {
	for _, r := range rules {
		from := strings.TrimSuffix(r.from, "/")
		if strings.HasSuffix(r.from, "/") || from == "" {
			from += "/x"
		}
		f := file{pkg: strings.TrimPrefix(from, "/"), name: "x.go"}
		to := strings.TrimSuffix(r.to[0], "/") + "/y"
		if r.to[0] == "" {
			to = "somewhere/else"
		}
		if !r.applies(f) || !r.forbids(to) {
			t.Errorf("rule %q -> %q does not catch %s importing %s", r.from, r.to, f.pkg, to)
		}
	}
}

// TestLazyreIsSharedLeaf checks the exceptions made for internal/lazyre:
// the parsers, the inventory and the evidence may import it, while the
// rules that make the parsers and the inventory leaves still hold for any
// other package.
func TestLazyreIsSharedLeaf(t *testing.T) {
	forbidden := func(pkg, imp string) bool {
		f := file{pkg: pkg, name: "x.go"}
		for _, r := range rules {
			if r.applies(f) && r.forbids(imp) {
				return true
			}
		}
		return false
	}
	for _, pkg := range []string{"parse", "parse/gpfs", "inventory", "internal/evidence/record", "internal/evidence/baseline"} {
		if forbidden(pkg, "internal/lazyre") {
			t.Errorf("%s may not import internal/lazyre", pkg)
		}
	}
	for _, c := range [][2]string{
		{"parse/gpfs", "internal/hostlist"},
		{"inventory", "internal/evidence/record"},
		{"internal/lazyre", "internal/hostlist"},
		{"internal/lazyre", "parse"},
	} {
		if !forbidden(c[0], c[1]) {
			t.Errorf("%s may import %s", c[0], c[1])
		}
	}
}
