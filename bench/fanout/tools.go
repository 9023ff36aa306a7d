package benchfanout

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// Bins are the executables the tools run. AnsiblePlaybook is "" when
// ansible-playbook is not installed.
type Bins struct {
	Prova, Floor, Reap string
	AnsiblePlaybook    string
	// ProvaBaseline is another prova binary (BENCHFANOUT_PROVA_BASELINE,
	// e.g. built from main) run right after prova, so that a change is
	// measured against what it replaces in the same conditions; "" leaves
	// its rows out.
	ProvaBaseline string
}

// Tool is one way of running the workload.
type Tool struct {
	Name string
	// About describes the tool for the table's notes.
	About string
	// Missing is why the tool cannot run here ("" when it can).
	Missing string
	// Tree is set for tools that run many processes: their tree PSS is
	// sampled.
	Tree bool
	cmd  func(ctx context.Context, w *Workload) *exec.Cmd
	// reap is the reap binary every tool runs under ("" in tests that
	// build none: the tool is then measured directly).
	reap string
}

// Tool names.
const (
	Floor          = "floor"
	FloorLockstep  = "floor-lockstep"
	Prova          = "prova"
	ProvaFree      = "prova-free"
	ProvaBaseline  = "prova-baseline"
	OpenSSH        = "openssh"
	AnsibleRaw     = "ansible-raw"
	AnsibleCommand = "ansible-command"
)

// Tools returns every tool in the order they are run at each N: the floor
// first, so that warming the sshd instances never favours prova.
func Tools(b Bins) []Tool {
	noAnsible := ""
	if b.AnsiblePlaybook == "" {
		noAnsible = "ansible-playbook is not installed (apt-get install ansible)"
	}
	tools := []Tool{
		{Name: Floor, About: "sshdtest.Floor in its own process: one x/crypto/ssh connection per host, the commands back to back",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				args := []string{"-key", w.Lab.KeyFile, "-known-hosts", w.Lab.KnownHosts, "-user", w.Lab.User,
					"-cmd", RemoteCommand, "-n", strconv.Itoa(w.Steps)}
				return exec.CommandContext(ctx, b.Floor, append(args, w.Addrs()...)...)
			}},
		{Name: FloorLockstep, About: "the floor with a barrier after each command, as prova runs steps (-lockstep)",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				args := []string{"-lockstep", "-key", w.Lab.KeyFile, "-known-hosts", w.Lab.KnownHosts, "-user", w.Lab.User,
					"-cmd", RemoteCommand, "-n", strconv.Itoa(w.Steps)}
				return exec.CommandContext(ctx, b.Floor, append(args, w.Addrs()...)...)
			}},
		{Name: Prova, About: "prova apply --forks N, console output to a pipe, run record written",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				return exec.CommandContext(ctx, b.Prova, "apply", w.Runbook, "-i", w.Inventory,
					"--forks", strconv.Itoa(len(w.Hosts)), "--ssh-config", "none",
					"--record-dir", filepath.Join(w.Dir, "records"))
			}},
		{Name: ProvaFree,
			About: "the same with --strategy free: every host goes through the steps at its own pace, as the floor runs its commands (no barrier after each step)",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				return exec.CommandContext(ctx, b.Prova, "apply", w.Runbook, "-i", w.Inventory,
					"--forks", strconv.Itoa(len(w.Hosts)), "--ssh-config", "none", "--strategy", "free",
					"--record-dir", filepath.Join(w.Dir, "records"))
			}},
		{Name: ProvaBaseline, Missing: noBaseline(b),
			About: "the same with the baseline prova binary (BENCHFANOUT_PROVA_BASELINE)",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				return exec.CommandContext(ctx, b.ProvaBaseline, "apply", w.Runbook, "-i", w.Inventory,
					"--forks", strconv.Itoa(len(w.Hosts)), "--ssh-config", "none",
					"--record-dir", filepath.Join(w.Dir, "records"))
			}},
		{Name: OpenSSH, Tree: true,
			About: "OpenSSH client, ControlMaster=auto and ControlPersist per host, xargs -P N over hosts, commands back to back",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				return exec.CommandContext(ctx, b.Reap, "-linger", "10s", "--", "sh", w.SSHAll)
			}},
		{Name: AnsibleRaw, Tree: true, Missing: noAnsible,
			About: "ansible-playbook, raw module, forks = N, pipelining, gather_facts false, ControlPersist",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				return exec.CommandContext(ctx, b.Reap, "-linger", "0s", "--", b.AnsiblePlaybook, w.RawBook)
			}},
		{Name: AnsibleCommand, Tree: true, Missing: noAnsible,
			About: "the same with the command module (Python on the host, as most playbooks run)",
			cmd: func(ctx context.Context, w *Workload) *exec.Cmd {
				return exec.CommandContext(ctx, b.Reap, "-linger", "0s", "--", b.AnsiblePlaybook, w.CmdBook)
			}},
	}
	for i := range tools {
		tools[i].reap = b.Reap
	}
	return tools
}

func noBaseline(b Bins) string {
	if b.ProvaBaseline == "" {
		return "no baseline binary (set BENCHFANOUT_PROVA_BASELINE)"
	}
	return ""
}

// Run runs tool on the workload once and measures it.
func (w *Workload) Run(ctx context.Context, t Tool) (Usage, error) {
	if t.Missing != "" {
		return Usage{}, fmt.Errorf("%s: %w: %s", t.Name, errNoTool, t.Missing)
	}
	cmd := t.cmd(ctx, w)
	cmd.Dir = w.Dir
	cmd.Env = w.env()
	usage := ""
	if t.reap != "" {
		// Every tool runs under reap, which reports the tool's own CPU
		// and peak RSS (ReadReapUsage says why).
		usage = filepath.Join(w.Dir, "usage")
		_ = os.Remove(usage)
		if cmd.Path == t.reap {
			cmd.Args = append([]string{cmd.Args[0], "-usage", usage}, cmd.Args[1:]...)
		} else {
			cmd.Args = append([]string{t.reap, "-linger", "0s", "-usage", usage, "--", cmd.Path}, cmd.Args[1:]...)
			cmd.Path = t.reap
		}
	}
	u, err := Measure(ctx, cmd, t.Tree)
	if err == nil && usage != "" {
		u, err = ReadReapUsage(u, usage)
	}
	if err != nil {
		return u, fmt.Errorf("%s on %d hosts: %w", t.Name, len(w.Hosts), err)
	}
	return u, nil
}

// env is the environment of every tool: PATH, an empty HOME, a UTF-8
// locale (Ansible requires one), no ssh-agent.
func (w *Workload) env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + w.Home,
		"USER=" + w.Lab.User,
		"LC_ALL=C.UTF-8",
		"NO_COLOR=1",
		"ANSIBLE_CONFIG=" + w.Ansible,
		"ANSIBLE_NOCOLOR=1",
	}
}
