package config

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

func TestValidFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.hcl")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			rb, diags := Load(f)
			if len(diags) > 0 {
				t.Fatalf("unexpected diagnostics: %s", diags.Error())
			}
			if len(rb.Steps) == 0 {
				t.Fatal("no steps parsed")
			}
		})
	}
}

func TestFullFixture(t *testing.T) {
	rb, diags := Load("testdata/valid/full.hcl")
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if rb.Description != "every block and meta-argument" {
		t.Errorf("description = %q", rb.Description)
	}
	if len(rb.Variables) != 2 || !rb.Variables[1].Sensitive || len(rb.Variables[0].Validations) != 1 {
		t.Errorf("variables not decoded: %+v", rb.Variables)
	}
	s := rb.Steps[0]
	for name, e := range map[string]any{"hosts": s.Hosts, "run_once": s.RunOnce, "when": s.When, "serial": s.Serial,
		"timeout": s.Timeout, "retries": s.Retries, "delay": s.Delay, "until": s.Until, "on_failure": s.OnFailure,
		"max_fail_percentage": s.MaxFailPercentage, "become": s.Become, "tags": s.Tags,
		"changed_when": s.ChangedWhen, "failed_when": s.FailedWhen} {
		if e == nil {
			t.Errorf("meta-argument %s not decoded", name)
		}
	}
	attrs, d := s.Body.JustAttributes()
	if d.HasErrors() || len(attrs) != 1 || attrs["command"] == nil {
		t.Errorf("module body should hold only command, got %v (%s)", attrs, d.Error())
	}
	if got := rb.Steps[1].DependsOnNames(); !cmp.Equal(got, []string{"first"}) {
		t.Errorf("depends_on = %v", got)
	}
	if rb.Hash == "" || rb.BaseDir != "testdata/valid" {
		t.Errorf("hash %q basedir %q", rb.Hash, rb.BaseDir)
	}
}

var errorMark = regexp.MustCompile(`# ERROR: (.*)$`)

// TestErrorFiles checks that every line marked "# ERROR: summary" gets a
// diagnostic with that summary, and that no other line does.
func TestErrorFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.hcl")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedErrors(src)
			_, diags := Parse(map[string][]byte{f: src})
			got := map[int][]string{}
			for _, d := range diags {
				if d.Subject == nil {
					t.Errorf("diagnostic without a range: %s", d.Error())
					continue
				}
				got[d.Subject.Start.Line] = append(got[d.Subject.Start.Line], d.Summary)
			}
			for _, v := range got {
				sort.Strings(v)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("diagnostics by line (-want +got):\n%s", diff)
			}
		})
	}
}

func expectedErrors(src []byte) map[int][]string {
	out := map[int][]string{}
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		if m := errorMark.FindStringSubmatch(sc.Text()); m != nil {
			out[n] = append(out[n], strings.Split(m[1], "; ")...)
			sort.Strings(out[n])
		}
	}
	return out
}

func TestLoadDirectoryMergesFiles(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.hcl"), []byte(`step "shell" "one" { command = "a" }`), 0o644)
	os.WriteFile(filepath.Join(dir, "b.hcl"), []byte(`step "shell" "two" { command = "b" }`), 0o644)
	rb, diags := Load(dir)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	if len(rb.Steps) != 2 || rb.Steps[0].Name != "one" || rb.Steps[1].Name != "two" {
		t.Fatalf("steps = %v", rb.Steps)
	}
	if rb.BaseDir != dir {
		t.Errorf("BaseDir = %q", rb.BaseDir)
	}
}

func TestLoadMissing(t *testing.T) {
	_, diags := Load(filepath.Join(t.TempDir(), "nope.hcl"))
	if !diags.HasErrors() || !strings.Contains(diags[0].Summary, "Cannot read runbook") {
		t.Fatalf("diags = %v", diags)
	}
}

func evalCtx(vars map[string]cty.Value) *hcl.EvalContext { return &hcl.EvalContext{Variables: vars} }

// runbook { step_timeout } is a positive duration.
func TestRunbookStepTimeout(t *testing.T) {
	rb, diags := Parse(map[string][]byte{"rb.hcl": []byte("runbook {\n  step_timeout = \"10m\"\n}\n")})
	if diags.HasErrors() || rb.StepTimeout != 10*time.Minute {
		t.Fatalf("step_timeout = %v, %s", rb.StepTimeout, diags.Error())
	}
	for _, bad := range []string{`"soon"`, `"0s"`, `"-5m"`, `600`} {
		_, diags := Parse(map[string][]byte{"rb.hcl": []byte("runbook {\n  step_timeout = " + bad + "\n}\n")})
		if !diags.HasErrors() {
			t.Errorf("step_timeout = %s accepted", bad)
		}
	}
}
