package ofed

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

const sample = "ofed_info/ofed_info-s-variants-multiple-sources.txt"

// blocks returns the outputs of `ofed_info -s` in the sample, each without
// the collector's "== id ==" separators and the authors' prompt lines, and
// without the `ofed_info -n` block that follows one of them.
func blocks(t *testing.T) []string {
	t.Helper()
	var out []string
	cur, keep := "", false
	for _, l := range strings.Split(string(samples.Read(t, sample)), "\n") {
		s := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(s, "== id"):
			continue
		case strings.HasSuffix(s, "ofed_info -s"):
			if cur != "" {
				out = append(out, cur)
			}
			cur, keep = "", true
			continue
		case strings.HasSuffix(s, "ofed_info -n"):
			keep = false
			continue
		}
		if keep && s != "" {
			cur += l + "\n"
		}
	}
	return append(out, cur)
}

func apply(t *testing.T, h module.Host) (module.ApplyResponse, error) {
	t.Helper()
	return New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: cty.EmptyObjectVal})
}

func TestConformance(t *testing.T) {
	b := blocks(t)
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "installed", Setup: func(h *moduletest.FakeHost) { h.Reply(`^ofed_info -s$`, moduletest.Reply{Stdout: b[1]}) }},
		{Name: "not_installed", Setup: func(h *moduletest.FakeHost) {
			h.Reply(`^ofed_info -s$`, moduletest.Reply{RC: 127, Stderr: "bash: ofed_info: command not found\n"})
		}},
	}, `^ofed_info -s$`))
}

func TestEverySampleBlock(t *testing.T) {
	want := []struct{ version, release string }{
		{"4.0-2.0.0.1", "MLNX_OFED_LINUX-4.0-2.0.0.1"},
		{"23.10-1.1.9.0", "MLNX_OFED_LINUX-23.10-1.1.9.0"},
		{"5.4-3.1.0.0", "MLNX_OFED_LINUX-5.4-3.1.0.0"},
		{"5.1-0.6.6.0", "MLNX_OFED_LINUX-5.1-0.6.6.0"},
		{"24.10-1.1.4.0", "MLNX_OFED_LINUX-24.10-1.1.4.0"},
	}
	b := blocks(t)
	if len(b) != len(want) {
		t.Fatalf("%d blocks in the sample, want %d", len(b), len(want))
	}
	for i, out := range b {
		h := moduletest.NewFakeHost("n1")
		h.Reply(`^ofed_info -s$`, moduletest.Reply{Stdout: out})
		resp, err := apply(t, h)
		if err != nil {
			t.Fatal(err)
		}
		o := resp.Outputs
		if !o.GetAttr("installed").True() || o.GetAttr("version").AsString() != want[i].version || o.GetAttr("release").AsString() != want[i].release {
			t.Errorf("block %d: outputs %#v", i, o)
		}
	}
}

func TestNotInstalledIsAResult(t *testing.T) {
	for _, r := range []moduletest.Reply{
		{RC: 127, Stderr: "sh: 1: ofed_info: not found\n"},
		{RC: 0, Stdout: "\n"},
	} {
		h := moduletest.NewFakeHost("n1")
		h.Reply(`^ofed_info -s$`, r)
		resp, err := apply(t, h)
		if err != nil || resp.Outputs.GetAttr("installed").True() || resp.Outputs.GetAttr("version").AsString() != "" {
			t.Errorf("reply %+v: outputs %#v, err %v", r, resp.Outputs, err)
		}
	}
}

func TestErrors(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs09")
	h.Reply(`^ofed_info -s$`, moduletest.Reply{Stdout: "this is not a version\n"})
	_, err := apply(t, h)
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "ofed_info" || pe.Line != 1 || !strings.Contains(err.Error(), "gpfs09") {
		t.Errorf("err = %v, want an ofed_info parse error on line 1 naming gpfs09", err)
	}
	h.Reply(`^ofed_info -s$`, moduletest.Reply{RC: 2, Stderr: "ofed_info: permission denied\n"})
	if _, err := apply(t, h); err == nil || !strings.Contains(err.Error(), "ofed_info on gpfs09 exited 2: ofed_info: permission denied") {
		t.Errorf("err = %v", err)
	}
}
