package copy

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/parse"
)

func decode(t *testing.T, src string) (cty.Value, hcl.Diagnostics) {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(src), "step.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatalf("parse: %s", diags.Error())
	}
	v, diags := hcldec.Decode(f.Body, New().Spec(), nil)
	if !diags.HasErrors() {
		diags = New().Validate(v)
	}
	return v, diags
}

func mustDecode(t *testing.T, src string) cty.Value {
	t.Helper()
	v, diags := decode(t, src)
	if diags.HasErrors() {
		t.Fatalf("decode: %s", diags.Error())
	}
	return v
}

func TestBadArguments(t *testing.T) {
	for _, tc := range []struct {
		name, src, summary string
		line               int // 0: no subject (a check across arguments)
	}{
		{"bad mode", "content = \"x\"\ndestination = \"/x\"\nmode = \"rw-r--r--\"", "Invalid file mode", 3},
		{"numeric mode", "content = \"x\"\ndestination = \"/x\"\nmode = 644", "", 0},
		{"empty destination", "content = \"x\"\n\ndestination = \"\"", "Empty destination", 3},
		{"missing destination", `content = "x"`, "Missing required argument", 1},
		{"neither", `destination = "/x"`, "Missing source or content", 0},
		{"both", "source = \"a\"\ncontent = \"x\"\ndestination = \"/x\"", "Conflicting arguments", 0},
		{"relative remote", "content = \"x\"\ndestination = \"etc/x\"", "Relative remote path", 0},
		{"fetch with content", "content = \"x\"\nsource = \"/a\"\ndestination = \"x\"\nfetch = true", "Conflicting arguments", 0},
		{"fetch relative source", "source = \"a\"\ndestination = \"x\"\nfetch = true", "Relative remote path", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := decode(t, tc.src)
			if tc.summary == "" {
				// mode = 644 is converted to the string "644", a valid mode.
				if diags.HasErrors() {
					t.Fatalf("unexpected error: %s", diags.Error())
				}
				return
			}
			if !diags.HasErrors() || diags[0].Summary != tc.summary {
				t.Fatalf("diags = %v, want %q", diags, tc.summary)
			}
			if tc.line > 0 && (diags[0].Subject == nil || diags[0].Subject.Start.Line != tc.line) {
				t.Errorf("subject = %v, want line %d", diags[0].Subject, tc.line)
			}
		})
	}
}

func TestValidateUnknowns(t *testing.T) {
	args := cty.ObjectVal(map[string]cty.Value{
		"source": cty.NullVal(cty.String), "content": cty.UnknownVal(cty.String),
		"destination": cty.UnknownVal(cty.String), "mode": cty.StringVal("0644"), "fetch": cty.False,
	})
	if diags := New().Validate(args); diags.HasErrors() {
		t.Fatalf("unknown content reported: %s", diags.Error())
	}
}

func TestUnreachable(t *testing.T) {
	args := mustDecode(t, "content = \"x\"\ndestination = \"/etc/x\"")
	h := moduletest.NewFakeHost("n1")
	h.Unreachable()
	if _, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: args}); !module.IsUnreachable(err) {
		t.Errorf("Plan: %v, want unreachable", err)
	}
	planned := module.PlanResponse{Action: module.Change, Changes: []module.AttrChange{{Name: "checksum"}}}
	_, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args, Planned: &planned})
	if !module.IsUnreachable(err) {
		t.Errorf("Apply: %v, want unreachable", err)
	}
}

func TestProbeFailures(t *testing.T) {
	args := mustDecode(t, "content = \"x\"\ndestination = \"/etc/x\"")
	for _, tc := range []struct {
		name  string
		setup func(*moduletest.FakeHost)
		want  string
		parse bool
	}{
		{"permission denied", func(h *moduletest.FakeHost) {
			h.Reply(`^sha256sum`, moduletest.Reply{RC: 1, Stderr: "sha256sum: /etc/x: Permission denied\n"})
		}, "sha256sum /etc/x on n1 exited 1: sha256sum: /etc/x: Permission denied", false},
		{"garbled checksum", func(h *moduletest.FakeHost) {
			h.Reply(`^sha256sum`, moduletest.Reply{Stdout: "Segmentation fault\n"})
		}, `sha256sum output line 1: no SHA-256 checksum: "Segmentation fault"`, true},
		{"garbled mode", func(h *moduletest.FakeHost) {
			h.Reply(`^sha256sum`, moduletest.Reply{Stdout: strings.Repeat("a", 64) + "  /etc/x\n"})
			h.Reply(`^stat`, moduletest.Reply{Stdout: "-rw-r--r--\n"})
		}, `stat -c %a output line 1: not an octal file mode: "-rw-r--r--"`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := moduletest.NewFakeHost("n1")
			tc.setup(h)
			_, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: args})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Plan: %v, want %q", err, tc.want)
			}
			var pe *parse.Error
			if tc.parse != errors.As(err, &pe) {
				t.Errorf("parse.Error in chain = %t, want %t", !tc.parse, tc.parse)
			}
		})
	}
}

func TestMissingSource(t *testing.T) {
	args := mustDecode(t, "source = \"nope.conf\"\ndestination = \"/etc/x\"")
	_, err := New().Plan(context.Background(), module.PlanRequest{Host: moduletest.NewFakeHost("n1"), Args: args, BaseDir: t.TempDir()})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Plan: %v, want a missing file error", err)
	}
}

func TestFetchMissingRemote(t *testing.T) {
	dir := t.TempDir()
	args := mustDecode(t, "source = \"/var/log/x\"\ndestination = \"out/x\"\nfetch = true")
	h := moduletest.NewFakeHost("n1")
	coreutils(h)
	plan, err := New().Plan(context.Background(), module.PlanRequest{Host: h, Args: args, BaseDir: dir})
	if err != nil || plan.Action != module.Unknown {
		t.Fatalf("plan = %+v, %v; want known after apply", plan, err)
	}
	_, err = New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args, BaseDir: dir, Planned: &plan})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("Apply: %v, want the host's missing file error", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "out", "*"))
	if len(left) != 0 {
		t.Fatalf("failed fetch left files: %q", left)
	}
}

func TestFetchWritesLocalFile(t *testing.T) {
	dir := t.TempDir()
	args := mustDecode(t, "source = \"/var/log/x\"\ndestination = \"out/n1/x\"\nfetch = true\nmode = \"0640\"")
	h := moduletest.NewFakeHost("n1")
	coreutils(h)
	h.SetFile("/var/log/x", []byte("log line\n"), 0o600)
	resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args, BaseDir: dir})
	if err != nil || !resp.Changed {
		t.Fatalf("resp = %+v, %v", resp, err)
	}
	p := filepath.Join(dir, "out", "n1", "x")
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "log line\n" {
		t.Fatalf("local file = %q, %v", b, err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("local mode = %v, want 0640", fi.Mode().Perm())
	}
	if got := resp.Outputs.GetAttr("checksum").AsString(); got != sum(b) {
		t.Errorf("checksum output = %s, want %s", got, sum(b))
	}
}
