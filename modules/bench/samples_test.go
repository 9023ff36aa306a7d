package bench

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

// Every elbencho console and resfile sample read through the module: a
// result, or an error naming the host and the tool's line (PARTIAL samples
// are cut by their source, the v1 console sample holds two runs).
func TestElbenchoSamples(t *testing.T) {
	var names []string
	for _, p := range []string{"elbencho/console-*", "elbencho/resfile-*"} {
		names = append(names, samples.Glob(t, p)...)
	}
	for _, name := range names {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data := string(samples.Read(t, name))
			h := moduletest.NewFakeHost("init8")
			load(t).common(h)
			if strings.Contains(name, "resfile") {
				h.Reply(`^elbencho `, moduletest.Reply{})
				h.Reply(`^cat -- `, moduletest.Reply{Stdout: data})
			} else {
				h.Reply(`^elbencho `, moduletest.Reply{Stdout: data})
				h.Reply(`^cat -- `, moduletest.Reply{RC: 1})
			}
			resp, err := NewBlock().Apply(context.Background(), module.ApplyRequest{Host: h,
				Args: decode(t, NewBlock(), "tool = \"elbencho\"\npath = \"/dev/nvme1n1\"\nmode = \"write\"")})
			switch {
			// The v1 console sample is two runs of a sweep script, which
			// the parser refuses as two outputs run together.
			case err != nil && (strings.Contains(name, "PARTIAL") || strings.Contains(name, "resfile") || strings.Contains(name, "console-v1")):
				if !strings.Contains(err.Error(), "on init8: elbencho") {
					t.Errorf("error does not name host and tool: %v", err)
				}
			case err != nil:
				t.Fatal(err)
			case resp.Failed || resp.Outputs.IsNull():
				t.Errorf("failed=%t: %s", resp.Failed, resp.Message)
			}
		})
	}
}

// fio's text output is read too (the module asks for JSON, an old fio may
// print text).
func TestFioTextSamples(t *testing.T) {
	for _, name := range []string{"fio/randread-4k-normal.txt", "fio/seqread-1m-normal.txt"} {
		h := moduletest.NewFakeHost("init1")
		load(t).common(h)
		h.Reply(`^fio `, moduletest.Reply{Stdout: string(samples.Read(t, name))})
		resp := apply(t, NewBlock(), h, "tool = \"fio\"\npath = \"/dev/nvme1n1\"\ncpu_capture = false")
		if resp.Failed || num(t, resp.Outputs, "iops") <= 0 {
			t.Errorf("%s: %s", name, resp.Message)
		}
	}
}
