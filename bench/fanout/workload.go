package benchfanout

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
)

// Steps is the number of commands each host runs by default (the
// workload of the table and the goals); BENCHFANOUT_STEPS sets others.
const Steps = 10

// MaxSteps is the largest step count a workload takes.
const MaxSteps = 1000

// ParseSteps reads BENCHFANOUT_STEPS: a comma-separated list of step
// counts from 1 to MaxSteps; "" is the default, Steps alone.
func ParseSteps(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return []int{Steps}, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > MaxSteps {
			return nil, fmt.Errorf("BENCHFANOUT_STEPS: %q is not a step count from 1 to %d", f, MaxSteps)
		}
		out = append(out, n)
	}
	return out, nil
}

// StepCommand is the command of every runbook step (shell module), and
// RemoteCommand what prova's shell module sends for it; the other tools
// send RemoteCommand, so every tool makes the remote side do the same work.
const (
	StepCommand   = "true"
	RemoteCommand = "sh -c true"
)

// Workload is the files every tool needs to run the benchmark on one set
// of hosts.
type Workload struct {
	Dir        string // everything below, absolute
	Hosts      []Host
	Steps      int // commands per host, the same for every tool
	Lab        *Lab
	Home       string // HOME of every tool: empty, so no ~/.ssh/config
	ControlDir string // OpenSSH and Ansible ControlPath sockets (short path)

	Runbook   string // prova runbook, one shell step per command
	Inventory string // prova HCL inventory
	HostsFile string // "name address port" lines
	SSHHost   string // per-host OpenSSH script
	SSHAll    string // xargs -P over HostsFile
	Ansible   string // ansible.cfg
	RawBook   string // playbook, raw module
	CmdBook   string // playbook, command module
}

// NewWorkload writes the workload files for hosts, steps commands per
// host, into dir, with controlDir for control sockets (keep it short: a
// unix socket path has at most 107 bytes).
func NewWorkload(lab *Lab, hosts []Host, steps int, dir, controlDir string) (*Workload, error) {
	if steps < 1 || steps > MaxSteps {
		return nil, fmt.Errorf("workload of %d steps per host: want 1 to %d", steps, MaxSteps)
	}
	w := &Workload{Dir: dir, Hosts: hosts, Steps: steps, Lab: lab, Home: filepath.Join(dir, "home"), ControlDir: controlDir,
		Runbook: filepath.Join(dir, "bench.hcl"), Inventory: filepath.Join(dir, "inventory.hcl"),
		HostsFile: filepath.Join(dir, "hosts.txt"), SSHHost: filepath.Join(dir, "openssh-host.sh"),
		SSHAll: filepath.Join(dir, "openssh.sh"), Ansible: filepath.Join(dir, "ansible", "ansible.cfg"),
		RawBook: filepath.Join(dir, "ansible", "raw.yml"), CmdBook: filepath.Join(dir, "ansible", "command.yml")}
	for _, d := range []string{w.Home, filepath.Join(dir, "ansible", "tmp"), controlDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	files := map[string]string{
		w.Runbook:   w.runbook(),
		w.Inventory: w.inventory(),
		w.HostsFile: w.hostsFile(),
		w.SSHHost:   w.sshHost(),
		w.SSHAll:    fmt.Sprintf("#!/bin/sh\nexec xargs -P %d -L 1 sh %s < %s\n", len(hosts), module.Quote(w.SSHHost), module.Quote(w.HostsFile)),
		w.Ansible:   w.ansibleConfig(),
		filepath.Join(dir, "ansible", "hosts.ini"): w.ansibleInventory(),
		w.RawBook: playbook("raw", steps),
		w.CmdBook: playbook("command", steps),
	}
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Addrs returns every host's "address:port".
func (w *Workload) Addrs() []string {
	out := make([]string, len(w.Hosts))
	for i, h := range w.Hosts {
		out[i] = h.HostPort()
	}
	return out
}

func (w *Workload) runbook() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runbook {\n  description = \"fan-out benchmark: %d trivial commands per host\"\n}\n", w.Steps)
	for i := range w.Steps {
		fmt.Fprintf(&b, "\nstep \"shell\" \"s%02d\" {\n  command = %q\n}\n", i+1, StepCommand)
	}
	return b.String()
}

func (w *Workload) inventory() string {
	var b strings.Builder
	// The hosts run commands on this machine: apply's cluster lock stays
	// in the workload's directory.
	fmt.Fprintf(&b, "defaults {\n  user                     = %q\n  identity_file            = %q\n"+
		"  known_hosts              = %q\n  strict_host_key_checking = \"yes\"\n  vars = { prova_lock_path = %q }\n}\n",
		w.Lab.User, w.Lab.KeyFile, w.Lab.KnownHosts, filepath.Join(w.Dir, "cluster.lock"))
	for _, h := range w.Hosts {
		fmt.Fprintf(&b, "\nhost %q {\n  address = %q\n  port    = %d\n}\n", h.Name, h.Addr, h.Port)
	}
	return b.String()
}

func (w *Workload) hostsFile() string {
	var b strings.Builder
	for _, h := range w.Hosts {
		fmt.Fprintf(&b, "%s %s %d\n", h.Name, h.Addr, h.Port)
	}
	return b.String()
}

// sshOptions are the OpenSSH client options shared by the OpenSSH run and
// Ansible: no ssh_config, the lab's key and known_hosts only, one
// persistent master connection per address, port and user.
func (w *Workload) sshOptions() string {
	return "-F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -i " + module.Quote(w.Lab.KeyFile) +
		" -o UserKnownHostsFile=" + module.Quote(w.Lab.KnownHosts) + " -o StrictHostKeyChecking=yes" +
		" -o ControlMaster=auto -o ControlPersist=60"
}

func (w *Workload) sshHost() string {
	return fmt.Sprintf(`#!/bin/sh
# usage: openssh-host.sh NAME ADDRESS PORT
# Runs the %d commands back to back on one host through one ControlMaster
# connection, then closes the master.
set -e
addr=$2 port=$3
s() { ssh %s -o ControlPath=%s -p "$port" -l %s "$@"; }
i=0
while [ $i -lt %d ]; do
  s "$addr" %s
  i=$((i+1))
done
s -O exit "$addr" 2>/dev/null
`, w.Steps, w.sshOptions(), module.Quote(w.ControlDir+"/%C"), module.Quote(w.Lab.User), w.Steps, module.Quote(RemoteCommand))
}

func (w *Workload) ansibleConfig() string {
	return fmt.Sprintf(`[defaults]
inventory = %s
forks = %d
host_key_checking = True
gathering = explicit
interpreter_python = /usr/bin/python3
retry_files_enabled = False
local_tmp = %s
nocows = True

[ssh_connection]
pipelining = True
ssh_args = %s
control_path_dir = %s
control_path = %%(directory)s/%%%%C
`, filepath.Join(w.Dir, "ansible", "hosts.ini"), len(w.Hosts), filepath.Join(w.Dir, "ansible", "tmp"),
		w.sshOptions(), w.ControlDir)
}

func (w *Workload) ansibleInventory() string {
	var b strings.Builder
	b.WriteString("[bench]\n")
	for _, h := range w.Hosts {
		fmt.Fprintf(&b, "%s ansible_host=%s ansible_port=%d\n", h.Name, h.Addr, h.Port)
	}
	fmt.Fprintf(&b, "\n[bench:vars]\nansible_user=%s\nansible_ssh_private_key_file=%s\n", w.Lab.User, w.Lab.KeyFile)
	return b.String()
}

func playbook(module string, steps int) string {
	var b strings.Builder
	b.WriteString("- hosts: all\n  gather_facts: false\n  tasks:\n")
	for i := range steps {
		fmt.Fprintf(&b, "    - name: s%02d\n      %s: %s\n", i+1, module, RemoteCommand)
	}
	return b.String()
}
