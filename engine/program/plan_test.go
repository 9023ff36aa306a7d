package program

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/engine/config"
	"github.com/provadev/prova/engine/eval"
)

func check(t *testing.T, path string) (*Program, hcl.Diagnostics) {
	t.Helper()
	rb, diags := config.Load(path)
	if diags.HasErrors() {
		return nil, diags
	}
	prog, d := Bind(rb, testRegistry())
	diags = append(diags, d...)
	vars, d := eval.ResolveVariables(rb, eval.Inputs{Partial: true})
	diags = append(diags, d...)
	scope := eval.NewScope(vars.Values, nil, nil, rb.BaseDir, prog.ResultTypes())
	locals, d := eval.EvalLocals(rb, scope.Base())
	diags = append(diags, d...)
	scope.Locals = locals
	diags = append(diags, Validate(prog, scope)...)
	return prog, diags
}

func TestValidRunbooks(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.hcl")
	for _, f := range files {
		prog, diags := check(t, f)
		if len(diags) > 0 {
			t.Errorf("%s: %s", f, diags.Error())
		}
		if f == "testdata/valid/refs.hcl" {
			var order []string
			for _, s := range prog.Steps {
				order = append(order, s.Name)
			}
			if !cmp.Equal(order, []string{"first", "later", "cross"}) {
				t.Errorf("order = %v; a step must run after the steps it references", order)
			}
		}
	}
}

var mark = regexp.MustCompile(`# ERROR: (.*)$`)

func TestErrorRunbooks(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.hcl")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, _ := os.ReadFile(f)
			want := map[int][]string{}
			sc := bufio.NewScanner(bytes.NewReader(src))
			for n := 1; sc.Scan(); n++ {
				if m := mark.FindStringSubmatch(sc.Text()); m != nil {
					want[n] = []string{m[1]}
				}
			}
			_, diags := check(t, f)
			got := map[int][]string{}
			for _, d := range diags {
				if d.Subject == nil {
					t.Errorf("diagnostic without range: %s", d.Error())
					continue
				}
				got[d.Subject.Start.Line] = append(got[d.Subject.Start.Line], d.Summary)
			}
			for _, v := range got {
				sort.Strings(v)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnknownModuleSuggests(t *testing.T) {
	rb, _ := config.Parse(map[string][]byte{"x.hcl": []byte(`step "cdm" "a" { command = "x" }`)})
	_, diags := Bind(rb, testRegistry())
	if len(diags) != 1 || diags[0].Detail != `There is no step module named "cdm". Did you mean "cmd"?` {
		t.Fatalf("diags = %v", diags)
	}
}
