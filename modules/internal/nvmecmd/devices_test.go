package nvmecmd

import (
	"context"
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse/nvme"
)

func state(nqn, subsys string, ctrls ...string) *State {
	s := nvme.Subsystem{Name: subsys, NQN: nqn}
	for _, c := range ctrls {
		s.Paths = append(s.Paths, nvme.Path{Name: c, Transport: "tcp"})
	}
	return &State{Subsys: &nvme.ListSubsys{Subsystems: []nvme.Subsystem{s}}, Evidence: map[string]string{}}
}

// The devices of a subsystem, from every nvme list form the samples show.
func TestDevicesFromListSamples(t *testing.T) {
	mikrotik := string(samples.Read(t, "nvme-cli/list-v-tcp-2.x-mikrotik-and-list-ns-error.txt"))
	loop := string(samples.Read(t, "nvme-cli/list-and-list-v-2019-pcie-and-loop-commitmsg.txt"))
	aws := string(samples.Read(t, "nvme-cli/list-json-1.x-aws-ec2-commented.txt"))
	aws = strings.ReplaceAll(strings.ReplaceAll(aws, "\n# ", "\n"), "\n#\n", "\n") // the script's comment prefix
	for _, c := range []struct {
		name  string
		st    *State
		reply map[string]string // command -> stdout; missing commands fail
		want  string
	}{
		{"2.x -v text", state("nqn.2026-09.com.mikrotik:rds2216.vm-storage-001", "nvme-subsys1", "nvme1"),
			map[string]string{"nvme list": mikrotik[strings.Index(mikrotik, "Subsystem "):strings.Index(mikrotik, "=== Namespaces")]}, "/dev/nvme1n1"},
		{"2019 -v loop", state("keith-loopback-testnqn", "nvme-subsys4", "nvme4", "nvme5"),
			map[string]string{"nvme list": loop[strings.Index(loop, "  # nvme list -v"):]}, "/dev/nvme4n1"}, // the sample's namespace table ends before nvme4n2
		{"1.x plain by controller", state("nqn.x", "nvme-subsys7", "nvme1"),
			map[string]string{"nvme list": loop[:strings.Index(loop, "And with")]}, "/dev/nvme1n1"},
		{"1.x json by subsystem", state("nqn.x", "nvme-subsys1", "nvme3"),
			map[string]string{"nvme list -o json": aws[strings.Index(aws, "{"):]}, "/dev/nvme1n1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := moduletest.NewFakeHost("init1")
			h.Reply(`^nvme list`, moduletest.Reply{RC: 1, Stderr: "unrecognized option\n"})
			for cmd, out := range c.reply {
				h.Reply("^"+cmd+"$", moduletest.Reply{Stdout: out})
			}
			devs, err := c.st.Devices(context.Background(), h, c.st.Subsys.Subsystems[0].NQN)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(devs, " "); got != c.want {
				t.Errorf("devices = %q, want %q", got, c.want)
			}
		})
	}
}

func TestDevicesListFailsEverywhere(t *testing.T) {
	h := moduletest.NewFakeHost("init9")
	h.Reply(`^nvme list`, moduletest.Reply{RC: 1, Stderr: "Failed to scan topology: No such file or directory\n"})
	_, err := state("nqn.x", "nvme-subsys1", "nvme1").Devices(context.Background(), h, "nqn.x")
	if err == nil || !strings.Contains(err.Error(), "init9") || !strings.Contains(err.Error(), "nvme driver not loaded") {
		t.Errorf("err = %v", err)
	}
}

func TestListSubsysGarbled(t *testing.T) {
	h := moduletest.NewFakeHost("init2")
	h.Reply(`^nvme list-subsys`, moduletest.Reply{Stdout: "nvme-subsys1 - NQN=x\n\\\n +- what is this\n"})
	_, err := ReadState(context.Background(), h)
	if err == nil || !strings.Contains(err.Error(), "on init2: nvme list-subsys output line 3") {
		t.Errorf("err = %v", err)
	}
}
