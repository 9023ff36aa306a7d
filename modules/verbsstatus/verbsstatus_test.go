package verbsstatus

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

const cmd = `^PATH=\$PATH:/usr/lpp/mmfs/bin mmfsadm test verbs status$`

func reply(r moduletest.Reply) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) { h.Reply(cmd, r) }
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{Name: "started", Setup: reply(moduletest.Reply{Stdout: string(samples.Read(t, "gpfs/mmfsadm-test-verbs-status-started.txt"))})},
		{Name: "disabled", Setup: reply(moduletest.Reply{Stdout: string(samples.Read(t, "gpfs/mmfsadm-test-verbs-status-disabled.txt"))})},
	}, `mmfsadm test verbs status$`, `^systemctl is-active gpfs$`, `mmgetstate -Y$`))
}

func apply(h module.Host) (module.ApplyResponse, error) {
	return New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: cty.EmptyObjectVal})
}

func TestSamples(t *testing.T) {
	for rel, want := range map[string]bool{"gpfs/mmfsadm-test-verbs-status-started.txt": true, "gpfs/mmfsadm-test-verbs-status-disabled.txt": false} {
		h := moduletest.NewFakeHost("n1")
		h.Reply(cmd, moduletest.Reply{Stdout: string(samples.Read(t, rel))})
		resp, err := apply(h)
		if err != nil || resp.Outputs.GetAttr("started").True() != want || (resp.Checks[0].Verdict == "pass") != want {
			t.Errorf("%s: resp %+v, err %v", rel, resp, err)
		}
	}
}

func TestDaemonDown(t *testing.T) {
	h := moduletest.NewFakeHost("n1")
	h.Reply(cmd, moduletest.Reply{RC: 1, Stderr: "mmfsadm: The GPFS daemon is not running.\n"})
	resp, err := apply(h)
	if err != nil || resp.Outputs.GetAttr("started").True() || !strings.Contains(resp.Message, "daemon is not running") {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}

func TestErrors(t *testing.T) {
	h := moduletest.NewFakeHost("gpfs04")
	h.Reply(cmd, moduletest.Reply{Stdout: "something else\n"})
	_, err := apply(h)
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "mmfsadm test verbs status" || !strings.Contains(err.Error(), "gpfs04") {
		t.Errorf("err = %v", err)
	}
	h.Reply(cmd, moduletest.Reply{RC: 127, Stderr: "sh: mmfsadm: not found\n"})
	if _, err := apply(h); err == nil || !strings.Contains(err.Error(), "mmfsadm on gpfs04 exited 127") {
		t.Errorf("err = %v", err)
	}
}
