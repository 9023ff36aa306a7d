package nvmeconnect

import (
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/modules/internal/nvmecmd/nvmefake"
)

func TestDisconnectConformance(t *testing.T) {
	probes := []string{`^nvme list-subsys -o json$`, `^nvme list-subsys$`}
	moduletest.Run(t, NewDisconnect(), []moduletest.Case{
		{
			Name: "all",
			Body: `nqn = "` + nqn + `"`,
			Setup: func(h *moduletest.FakeHost) {
				s := nvmefake.New(target("rdma", "tcp"))
				s.Connect("rdma")
				s.Connect("tcp")
				s.Install(h)
			},
			Probes: probes,
		},
		{
			Name: "one-transport",
			Body: `nqn = "` + nqn + `"` + "\ntransport = \"tcp\"",
			Setup: func(h *moduletest.FakeHost) {
				s := nvmefake.New(target("rdma", "tcp"))
				s.Connect("rdma")
				s.Connect("tcp")
				s.Install(h)
			},
			Probes: probes,
		},
		{
			Name:   "not-connected",
			Body:   `nqn = "` + nqn + `"`,
			Setup:  func(h *moduletest.FakeHost) { nvmefake.New(target("rdma", "tcp")).Install(h) },
			Probes: probes,
		},
	})
}

func TestDisconnectCountsControllers(t *testing.T) {
	s := nvmefake.New(target("rdma", "tcp"))
	s.Connect("rdma")
	s.Connect("tcp")
	s.DisconnectExitsOne = true // 2017: exit status 1 on success
	h := moduletest.NewFakeHost("init1")
	s.Install(h)
	plan, resp := run(t, NewDisconnect(), h, `nqn = "`+nqn+`"`)
	if plan.Action != module.Change {
		t.Errorf("plan = %s", plan.Action)
	}
	if resp.Failed || !resp.Changed || resp.RC != 1 {
		t.Fatalf("failed=%t changed=%t rc=%d: %s", resp.Failed, resp.Changed, resp.RC, resp.Message)
	}
	if n, _ := resp.Outputs.GetAttr("controllers").AsBigFloat().Int64(); n != 2 {
		t.Errorf("controllers = %d, want 2", n)
	}
	if len(s.Connected()) != 0 {
		t.Errorf("still connected: %v", s.Connected())
	}
}

func TestDisconnectOneTransportKeepsTheOther(t *testing.T) {
	s := nvmefake.New(target("rdma", "tcp"))
	s.Connect("rdma")
	s.Connect("tcp")
	h := moduletest.NewFakeHost("init1")
	s.Install(h)
	_, resp := run(t, NewDisconnect(), h, `nqn = "`+nqn+`"`+"\ntransport = \"tcp\"")
	if resp.Failed {
		t.Fatal(resp.Message)
	}
	left := s.Connected()
	if len(left) != 1 || left[0].Transport != "rdma" {
		t.Errorf("left = %v, want the rdma path", left)
	}
}

// nvme-cli says it disconnected nothing, or exits 0 while list-subsys still
// shows the controller: both are failures naming the host.
func TestDisconnectFailures(t *testing.T) {
	commit := samples.Read(t, "nvme-cli/disconnect-nqn-1-controller-commitmsg.txt")
	mikrotik := samples.Read(t, "nvme-cli/disconnect-nqn-tcp-2.x-mikrotik.txt")
	noDriver := samples.Read(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt")
	for _, c := range []struct {
		name  string
		reply moduletest.Reply
		want  string
	}{
		{"zero", moduletest.Reply{Stdout: "NQN:" + nqn + " disconnected 0 controller(s)\n"}, "disconnected 0 controllers"},
		{"stays", moduletest.Reply{Stdout: strings.Replace(section(commit, "$ ./nvme disconnect"), "testnqn", nqn, 1), RC: 1}, "still connected"},
		{"stays-2x", moduletest.Reply{Stdout: strings.Replace(string(mikrotik), "nqn.2026-09.com.mikrotik:rds2216.vm-storage-001", nqn, 1)}, "still connected"},
		{"garbled", moduletest.Reply{Stdout: "NQN:" + nqn + " disconnec"}, "nvme disconnect output line 1"},
		{"no-driver", moduletest.Reply{RC: 1, Stderr: section(noDriver, "$ nvme disconnect")}, "nvme driver not loaded"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := nvmefake.New(target("rdma", "tcp"))
			s.Connect("rdma")
			h := moduletest.NewFakeHost("init5")
			s.Install(h)
			h.Reply(`^nvme disconnect`, c.reply)
			args := decodeArgs(t, NewDisconnect(), `nqn = "`+nqn+`"`)
			resp, err := NewDisconnect().Apply(t.Context(), module.ApplyRequest{Host: h, Args: args})
			msg := resp.Message
			if err != nil {
				msg = err.Error()
			} else if !resp.Failed {
				t.Fatalf("not failed: %s", resp.Message)
			}
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, "init5") {
				t.Errorf("message %q should name %q and the host", msg, c.want)
			}
		})
	}
}

// A host without the nvme driver has nothing connected: no change.
func TestDisconnectNoDriverIsNotConnected(t *testing.T) {
	noDriver := samples.Read(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt")
	h := moduletest.NewFakeHost("init1")
	h.Reply(`^nvme list-subsys -o json$`, moduletest.Reply{RC: 1, Stderr: section(noDriver, "$ nvme list-subsys -o json")})
	h.Reply(`^nvme list-subsys$`, moduletest.Reply{RC: 1, Stderr: section(noDriver, "$ nvme list-subsys")})
	plan, resp := run(t, NewDisconnect(), h, `nqn = "`+nqn+`"`)
	if plan.Action != module.NoOp || resp.Failed || resp.Changed {
		t.Errorf("plan %s, apply failed=%t changed=%t: %s", plan.Action, resp.Failed, resp.Changed, resp.Message)
	}
}
