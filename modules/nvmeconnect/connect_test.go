package nvmeconnect

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/modules/internal/nvmecmd/nvmefake"
)

const connectBody = `transport = "rdma"
address   = "10.68.20.10"
nqn       = "nqn.2024-01.dev.wutz:target1"
`

func TestConnectConformance(t *testing.T) {
	probes := []string{`^nvme list-subsys -o json$`, `^nvme list-subsys$`}
	moduletest.Run(t, NewConnect(), []moduletest.Case{
		{
			Name:   "connect",
			Body:   connectBody + "nr_io_queues = 8\nctrl_loss_tmo = -1\nhost_traddr = \"10.68.20.21\"",
			Setup:  func(h *moduletest.FakeHost) { nvmefake.New(target("rdma", "tcp")).Install(h) },
			Probes: probes,
		},
		{
			Name: "already",
			Body: connectBody,
			Setup: func(h *moduletest.FakeHost) {
				s := nvmefake.New(target("rdma", "tcp"))
				s.Connect("rdma")
				s.Install(h)
			},
			Probes: probes,
		},
		{
			Name:       "rdma-not-offered",
			Body:       connectBody,
			Setup:      func(h *moduletest.FakeHost) { nvmefake.New(target("tcp")).Install(h) },
			Probes:     probes,
			WantFailed: true,
		},
	})
}

func TestConnectOutputs(t *testing.T) {
	s := nvmefake.New(target("rdma", "tcp"))
	h := moduletest.NewFakeHost("init1")
	s.Install(h)
	plan, resp := run(t, NewConnect(), h, connectBody)
	if plan.Action != module.Change || plan.Summary != "connect "+nqn+" over rdma to 10.68.20.10:4420" {
		t.Errorf("plan = %s %q", plan.Action, plan.Summary)
	}
	if !resp.Changed || resp.Failed {
		t.Fatalf("changed=%t failed=%t %s", resp.Changed, resp.Failed, resp.Message)
	}
	if got := strs(t, resp, "devices"); len(got) != 1 || got[0] != "/dev/nvme1n1" {
		t.Errorf("devices = %v, want [/dev/nvme1n1] (not the local /dev/nvme0n1)", got)
	}
	o := resp.Outputs
	if o.GetAttr("device").AsString() != "/dev/nvme1n1" || o.GetAttr("transport").AsString() != "rdma" {
		t.Errorf("device %v transport %v", o.GetAttr("device"), o.GetAttr("transport"))
	}
	p := o.GetAttr("paths").Index(cty.NumberIntVal(0))
	if p.GetAttr("controller").AsString() != "nvme2" || p.GetAttr("traddr").AsString() != addr || p.GetAttr("state").AsString() != "live" {
		t.Errorf("path = %#v", p)
	}
	if len(resp.Evidence) < 3 {
		t.Errorf("evidence %v: want list-subsys before and after, connect and list", resp.Evidence)
	}
}

// A subsystem already connected over TCP gets an RDMA path too: the
// transport output shows both, so a runbook asserting "rdma" fails.
func TestConnectMixedTransports(t *testing.T) {
	s := nvmefake.New(target("rdma", "tcp"))
	s.Connect("tcp")
	h := moduletest.NewFakeHost("init1")
	s.Install(h)
	plan, resp := run(t, NewConnect(), h, connectBody)
	if plan.Action != module.Change || !strings.Contains(plan.Summary, "already connected over tcp") {
		t.Errorf("plan = %s %q", plan.Action, plan.Summary)
	}
	if got := resp.Outputs.GetAttr("transport").AsString(); got != "rdma,tcp" {
		t.Errorf("transport = %q, want rdma,tcp", got)
	}
}

func TestConnectRefusedSaysWhy(t *testing.T) {
	s := nvmefake.New(target("tcp"))
	h := moduletest.NewFakeHost("init3")
	s.Install(h)
	_, resp := run(t, NewConnect(), h, connectBody)
	if !resp.Failed || !strings.Contains(resp.Message, "connection refused by the target") || !strings.Contains(resp.Message, "init3") {
		t.Errorf("failed=%t message %q", resp.Failed, resp.Message)
	}
	if !resp.Outputs.IsNull() {
		t.Error("outputs of a failed connect must be null")
	}
}

// nvme-cli 1.x: connect prints nothing, list-subsys has no JSON, list is a
// table without subsystem columns: devices are found by name.
func TestConnect1x(t *testing.T) {
	smartx := samples.Read(t, "nvme-cli/discover-connect-list-subsys-rdma-3-paths-smartx.txt")
	spdk := samples.Read(t, "nvme-cli/discover-connect-list-disconnect-rdma-spdk-1.x.txt")
	connected := false
	h := moduletest.NewFakeHost("init1")
	h.Reply(`^nvme list-subsys -o json$`, moduletest.Reply{RC: 1, Stderr: "list-subsys: unrecognized option '-o'\n"})
	h.Handle(`^nvme list-subsys$`, func(string, []byte) moduletest.Reply {
		if !connected {
			return moduletest.Reply{}
		}
		return moduletest.Reply{Stdout: section(smartx, "# nvme list-subsys")}
	})
	h.Handle(`^nvme connect -t rdma -a 10\.0\.58\.75 -s 4420 -n nqn\.2020-12\.com\.smartx:system:sub1 -l 604800$`,
		func(string, []byte) moduletest.Reply { connected = true; return moduletest.Reply{} })
	h.Reply(`^nvme list -v -o json$`, moduletest.Reply{RC: 1, Stderr: "list: unrecognized option '-v'\n"})
	h.Reply(`^nvme list -o json$`, moduletest.Reply{RC: 1, Stderr: "list: unrecognized option '-o'\n"})
	list := strings.Replace(section(spdk, "$ sudo nvme list"), "/dev/nvme1n1 ", "/dev/nvme11n1", 1)
	h.Reply(`^nvme list$`, moduletest.Reply{Stdout: list})
	_, resp := run(t, NewConnect(), h, "transport = \"rdma\"\naddress = \"10.0.58.75\"\nnqn = \"nqn.2020-12.com.smartx:system:sub1\"\nctrl_loss_tmo = 604800")
	if resp.Failed {
		t.Fatal(resp.Message)
	}
	if got := strs(t, resp, "devices"); len(got) != 1 || got[0] != "/dev/nvme11n1" {
		t.Errorf("devices = %v", got)
	}
	if resp.Outputs.GetAttr("paths").LengthInt() != 3 || resp.Outputs.GetAttr("transport").AsString() != "rdma" {
		t.Errorf("outputs = %#v", resp.Outputs)
	}
}

// Every list-subsys sample: the subsystem is seen as connected over its
// transport (so connect is a no-op and disconnect a change naming the
// controllers).
func TestListSubsysSamples(t *testing.T) {
	for _, c := range []struct {
		sample, nqn, transport, address string
		controllers                     int
	}{
		{"nvme-cli/list-subsys-json-2.x-tcp-powerstore-gonvme-fixture.txt", "nqn.1988-11.com.dell:powerstore:00:1b7322d7546dFD05675D", "tcp", "10.1.1.1", 2},
		{"nvme-cli/list-subsys-and-json-doc-example-v1.16.txt", "nvmf-test2", "rdma", "1.1.1.3", 2},
		{"nvme-cli/list-subsys-tcp-2.x-non-optimized-pr1540.txt", "nqn.1988-11.com.dell:powerstore:00:f03028e73ef7D032D81E", "tcp", "10.162.198.45", 2},
		{"nvme-cli/list-subsys-tcp-2.x-blank-ana-state-issue1458.txt", "nqn.2014-08.org.nvmexpress:NVMf:uuid:c54e45a7-8c32-4894-b5da-e509f368bc68", "tcp", "127.0.0.1", 2},
		{"nvme-cli/list-subsys-tcp-ana-states-1.x-commitmsg.txt", "nqn.2016-01.com.lightbitslabs:uuid:07cfffe6-5a4f-4151-b663-e13cf835609b", "tcp", "10.113.5.1", 10},
		{"nvme-cli/list-subsys-rdma-2-subsystems-1.x-commitmsg.txt", "nvmf-test", "rdma", "1.1.1.3", 2},
		{"nvme-cli/connect-list-listsubsys-tcp-2.x-mikrotik.txt", "nqn.2026-09.com.mikrotik:rds2216.vm-storage-001", "tcp", "172.16.100.125", 1},
	} {
		t.Run(c.sample, func(t *testing.T) {
			data := string(samples.Read(t, c.sample))
			if i := strings.Index(data, "root@host# nvme list-subsys -o json"); i >= 0 {
				data = data[i+len("root@host# nvme list-subsys -o json"):] // the JSON half
			}
			if i := strings.Index(data, "nvme-subsys0 - NQN"); i >= 0 && strings.Contains(c.sample, "mikrotik") {
				data = data[i:]
			}
			if i := strings.Index(data, "This output is somewhat"); i >= 0 {
				data = data[:i]
			}
			h := moduletest.NewFakeHost("init1")
			h.Reply(`^nvme list-subsys`, moduletest.Reply{Stdout: data})
			body := fmt.Sprintf("transport = %q\naddress = %q\nnqn = %q\n", c.transport, c.address, c.nqn)
			cp := planOnly(t, NewConnect(), h, body)
			if cp.Action != module.NoOp {
				t.Errorf("connect plan = %s %q, want no change", cp.Action, cp.Summary)
			}
			dp := planOnly(t, NewDisconnect(), h, fmt.Sprintf("nqn = %q\ntransport = %q\n", c.nqn, c.transport))
			if dp.Action != module.Change || len(regexp.MustCompile(`nvme\d+ (rdma|tcp) `).FindAllString(dp.Summary, -1)) != c.controllers {
				t.Errorf("disconnect plan = %s %q, want %d controllers", dp.Action, dp.Summary, c.controllers)
			}
		})
	}
}
