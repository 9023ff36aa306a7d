package arch

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const lazyrePath = mod + "internal/lazyre"

// TestEveryLazyExpressionCompiles parses every Go file of the module
// (tests too), finds each call of lazyre.New and compiles its expression,
// which prova itself compiles only on first use: a bad expression fails
// here, naming its file and line, rather than in the first run that
// parses with it. The expression must be a string literal, so that the
// package variable it declares is static data with no initialiser
// (lazyre.New) and so that this test can read it.
func TestEveryLazyExpressionCompiles(t *testing.T) {
	fset := token.NewFileSet()
	calls := 0
	for _, p := range listModule(t) {
		for _, name := range slices.Concat(p.GoFiles, p.TestGoFiles, p.XTestGoFiles) {
			path := filepath.Join(p.Dir, name)
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			n, problems := lazyExpressions(fset, f)
			calls += n
			for _, pr := range problems {
				t.Error(pr)
			}
		}
	}
	// The parsers, the inventory, the evidence and the lab declare about
	// a hundred: far fewer means the walk missed them.
	if calls < 50 {
		t.Fatalf("found only %d calls of lazyre.New in the module", calls)
	}
}

// lazyExpressions finds the calls of lazyre.New in f and returns how many
// there are, and one problem (file:line: what) for each whose argument is
// not a string literal or does not compile.
func lazyExpressions(fset *token.FileSet, f *ast.File) (calls int, problems []string) {
	local := ""
	for _, is := range f.Imports {
		if p, _ := strconv.Unquote(is.Path.Value); p == lazyrePath {
			local = "lazyre"
			if is.Name != nil {
				local = is.Name.Name
			}
		}
	}
	if local == "" || local == "_" {
		return 0, nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "New" {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != local {
			return true
		}
		calls++
		at := fset.Position(call.Pos())
		where := fmt.Sprintf("%s:%d", at.Filename, at.Line)
		var lit *ast.BasicLit
		if len(call.Args) == 1 {
			lit, _ = call.Args[0].(*ast.BasicLit)
		}
		if lit == nil || lit.Kind != token.STRING {
			problems = append(problems, where+": lazyre.New takes a string literal (static data, and this test reads it)")
			return true
		}
		expr, err := strconv.Unquote(lit.Value)
		if err == nil {
			_, err = regexp.Compile(expr)
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", where, err))
		}
		return true
	})
	return calls, problems
}

// TestLazyExpressionsChecked shows that lazyExpressions counts the calls
// under any import name and reports a bad expression and a non-literal
// argument with their lines.
func TestLazyExpressionsChecked(t *testing.T) {
	src := `package p

import re "` + lazyrePath + `"

var (
	good = re.New(` + "`^a+$`" + `)
	bad  = re.New("(unclosed")
	pat  = "x"
	dyn  = re.New(pat)
)
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	n, problems := lazyExpressions(fset, f)
	if n != 3 {
		t.Errorf("counted %d calls; want 3", n)
	}
	want := []string{"p.go:7: error parsing regexp: missing closing )", "p.go:9: lazyre.New takes a string literal"}
	if len(problems) != len(want) {
		t.Fatalf("problems %q; want %d", problems, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(problems[i], w) {
			t.Errorf("problem %d = %q; want it to start %q", i, problems[i], w)
		}
	}
}
