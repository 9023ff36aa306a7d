package benchfanout_test

import (
	"context"
	"io"
	"io/fs"
	"strings"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// The apply of the scale runbook is the same, host by host, whether the
// shell module's per-host arguments are decoded into its struct alone
// (module.StructArgs) or through their cty object: every host is sent the
// same commands in the same order and ends with the same tally. The hosts
// echo what they are asked to echo, so the steps that read an earlier
// step's stdout get per-host values, and fail one guard in three, so the
// guards' both answers are taken.
func TestStructArgsApplyMatchesObjectApply(t *testing.T) {
	rbPath, invPath := writeScale(t, 25, 120)
	rb := mustLoad(t, rbPath)
	inv := mustInventory(t, invPath)
	reg, objReg := structArgsRegistries(t)
	type hostRun struct {
		Commands []string
		Tally    event.Tally
	}
	runApply := func(reg *module.Registry) map[string]hostRun {
		prog := mustBind(t, rb, reg)
		hosts := map[string]*echoHost{}
		for _, h := range inv.Hosts {
			hosts[h.Name] = &echoHost{name: h.Name}
		}
		r := apply.New(prog, mustScope(t, rb, prog, inv), inv, apply.Options{Mode: apply.ModeApply, Forks: apply.DefaultForks,
			Host: func(name string) module.Host { return hosts[name] }})
		out, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Diagnostics) > 0 {
			t.Fatalf("apply: %v", out.Diagnostics)
		}
		got := map[string]hostRun{}
		for name, h := range hosts {
			got[name] = hostRun{Commands: h.cmds, Tally: out.Hosts[name]}
		}
		return got
	}
	want, got := runApply(objReg), runApply(reg)
	n := 0
	for _, h := range want {
		n += len(h.Commands)
	}
	if len(want) != 120 || n < 1000 {
		t.Fatalf("the apply reached %d hosts with %d commands", len(want), n)
	}
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("the apply through the struct differs from the apply through the object (-object +struct):\n%s", d)
	}
}

// echoHost records the commands it is sent, in order, and answers at
// once: a guard (test -e) fails unless the path's length is a multiple of
// three, any other command exits 0 with the command's last word on stdout.
type echoHost struct {
	name string
	mu   sync.Mutex
	cmds []string
}

func (h *echoHost) Name() string { return h.name }

func (h *echoHost) Run(_ context.Context, cmd string, _ io.Reader, stdout, _ io.Writer) (int, error) {
	h.mu.Lock()
	h.cmds = append(h.cmds, cmd)
	h.mu.Unlock()
	if path, ok := strings.CutPrefix(cmd, "test -e "); ok {
		if len(path)%3 == 0 {
			return 0, nil
		}
		return 1, nil
	}
	f := strings.Fields(strings.Trim(cmd, "'"))
	if len(f) > 0 && stdout != nil {
		io.WriteString(stdout, f[len(f)-1]+"\n")
	}
	return 0, nil
}

func (h *echoHost) Put(context.Context, string, io.Reader, fs.FileMode) error { return nil }
func (h *echoHost) Get(context.Context, string, io.Writer) error              { return nil }
