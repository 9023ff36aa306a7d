package benchfanout_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/provadev/prova/bench/fanout"
	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/modules/all"
)

func TestWorkloadFilesAreValid(t *testing.T) {
	lab := &benchfanout.Lab{User: "root", KeyFile: "/keys/id_ed25519", KnownHosts: "/keys/known_hosts",
		Endpoints: []benchfanout.Endpoint{{Addr: "127.0.0.1", Port: 2201}, {Addr: "127.0.0.1", Port: 2202}, {Addr: "127.0.0.1", Port: 2203}}}
	hosts, err := lab.Hosts(3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lab.Hosts(4); err == nil {
		t.Error("Hosts(4) on a 3-endpoint lab: no error")
	}
	w, err := benchfanout.NewWorkload(lab, hosts, benchfanout.Steps, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}

	// prova: the runbook binds to Steps shell steps running StepCommand.
	rb := mustLoad(t, w.Runbook)
	prog := mustBind(t, rb, all.Registry())
	if len(prog.Steps) != benchfanout.Steps {
		t.Errorf("runbook has %d steps, want %d", len(prog.Steps), benchfanout.Steps)
	}
	for _, s := range prog.Steps {
		if s.Module.ID() != "shell" {
			t.Errorf("step %s uses %s, want shell", s.Name, s.Module.ID())
		}
	}
	inv := mustInventory(t, w.Inventory)
	if len(inv.Hosts) != 3 {
		t.Fatalf("inventory has %d hosts, want 3", len(inv.Hosts))
	}
	for i, h := range inv.Hosts {
		c := h.Connection
		if h.Name != hosts[i].Name || h.Address != "127.0.0.1" || c.Port != hosts[i].Port || c.User != "root" ||
			len(c.IdentityFiles) != 1 || c.IdentityFiles[0] != lab.KeyFile || c.KnownHosts != lab.KnownHosts {
			t.Errorf("inventory host %d = %+v %+v, want %+v with the lab's key and known_hosts", i, h, c, hosts[i])
		}
	}
	// The plan runs on every host (fake hosts: no network).
	out := run(t, prog, mustScope(t, rb, prog, inv), inv, apply.ModePlan)
	if len(out.Planned) != 3*benchfanout.Steps {
		t.Errorf("planned %d host-steps, want %d", len(out.Planned), 3*benchfanout.Steps)
	}

	// OpenSSH: valid shell scripts, one line per host for xargs.
	for _, s := range []string{w.SSHHost, w.SSHAll} {
		if out, err := exec.Command("sh", "-n", s).CombinedOutput(); err != nil {
			t.Errorf("sh -n %s: %v %s", s, err, out)
		}
	}
	if got := read(t, w.HostsFile); got != "h001 127.0.0.1 2201\nh002 127.0.0.1 2202\nh003 127.0.0.1 2203\n" {
		t.Errorf("hosts file = %q", got)
	}
	if got := read(t, w.SSHAll); !strings.Contains(got, "xargs -P 3 -L 1 sh ") {
		t.Errorf("openssh.sh does not run 3 hosts at once: %q", got)
	}
	if got := read(t, w.SSHHost); !strings.Contains(got, "ControlMaster=auto") || !strings.Contains(got, "'sh -c true'") {
		t.Errorf("openssh-host.sh lacks ControlMaster or the command: %q", got)
	}

	// Ansible: forks = N, pipelining, and playbooks of Steps tasks.
	cfg := read(t, w.Ansible)
	for _, want := range []string{"forks = 3\n", "pipelining = True\n", "gathering = explicit\n", "control_path = %(directory)s/%%C\n"} {
		if !strings.Contains(cfg, want) {
			t.Errorf("ansible.cfg lacks %q:\n%s", want, cfg)
		}
	}
	ini := read(t, filepath.Join(w.Dir, "ansible", "hosts.ini"))
	if !strings.Contains(ini, "h002 ansible_host=127.0.0.1 ansible_port=2202\n") {
		t.Errorf("hosts.ini:\n%s", ini)
	}
	for book, module := range map[string]string{w.RawBook: "raw", w.CmdBook: "command"} {
		var plays []struct {
			Hosts       string           `yaml:"hosts"`
			GatherFacts bool             `yaml:"gather_facts"`
			Tasks       []map[string]any `yaml:"tasks"`
		}
		if err := yaml.Unmarshal([]byte(read(t, book)), &plays); err != nil {
			t.Fatalf("%s: %v", book, err)
		}
		if len(plays) != 1 || plays[0].Hosts != "all" || plays[0].GatherFacts || len(plays[0].Tasks) != benchfanout.Steps {
			t.Fatalf("%s = %+v, want one play on all hosts, no facts, %d tasks", book, plays, benchfanout.Steps)
		}
		if got := plays[0].Tasks[0][module]; got != benchfanout.RemoteCommand {
			t.Errorf("%s: first task %v, want %s: %s", book, plays[0].Tasks[0], module, benchfanout.RemoteCommand)
		}
	}
}

func TestScaleFilesPlanAndApply(t *testing.T) {
	rbPath, invPath := writeScale(t, 20, 60)
	rb := mustLoad(t, rbPath)
	prog := mustBind(t, rb, all.Registry())
	if len(prog.Steps) != 20 {
		t.Fatalf("%d steps, want 20", len(prog.Steps))
	}
	inv := mustInventory(t, invPath)
	if len(inv.Hosts) != 60 || len(inv.Groups["g07"].Hosts) != 3 {
		t.Fatalf("%d hosts, group g07 %v", len(inv.Hosts), inv.Groups["g07"].Hosts)
	}
	scope := mustScope(t, rb, prog, inv)
	planned := run(t, prog, scope, inv, apply.ModePlan)
	actions := map[event.PlanAction]int{}
	for _, p := range planned.Planned {
		actions[p.Action]++
	}
	// Every kind of step shows up: guarded shell steps that will run,
	// steps that wait for earlier results, steps skipped by when.
	for _, a := range []event.PlanAction{event.PlanChange, event.PlanUnknown, event.PlanSkip} {
		if actions[a] == 0 {
			t.Errorf("no host-step planned %q: %v", a, actions)
		}
	}
	applied := run(t, prog, scope, inv, apply.ModeApply)
	if applied.Hosts["n0001"].Changed == 0 || applied.Hosts["n0002"].OK+applied.Hosts["n0002"].Changed == 0 {
		t.Errorf("apply tallies: n0001 %+v, n0002 %+v", applied.Hosts["n0001"], applied.Hosts["n0002"])
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
