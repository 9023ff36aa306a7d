package nvmediscover

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/modules/internal/nvmecmd/nvmefake"
)

const nqn = "nqn.2024-01.dev.wutz:target1"

func target(transports ...string) nvmefake.Target {
	return nvmefake.Target{NQN: nqn, Address: "10.68.20.10", Port: 4420, Transports: transports}
}

// section returns the lines of a combined sample after the first line
// containing start, up to the next "$ " prompt line.
func section(b []byte, start string) string {
	var out []string
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		switch {
		case !in && strings.Contains(l, start):
			in = true
		case in && strings.HasPrefix(l, "$ "):
			return strings.Join(out, "\n") + "\n"
		case in:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func TestConformance(t *testing.T) {
	cscs := string(samples.Read(t, "nvme-cli/discover-rdma-cscs-1-record.txt"))
	reset := string(samples.Read(t, "nvme-cli/error-discover-rdma-connection-reset-segfault-commitmsg.txt"))
	moduletest.Run(t, New(), moduletest.WithProbes([]moduletest.Case{
		{
			Name:  "json",
			Body:  `transport = "rdma"` + "\n" + `address = "10.68.20.10"`,
			Setup: func(h *moduletest.FakeHost) { nvmefake.New(target("rdma", "tcp")).Install(h) },
		},
		{
			Name: "text-fallback",
			Body: `transport = "rdma"` + "\n" + `address = "148.187.104.85"` + "\n" + `host_traddr = "148.187.104.86"`,
			Setup: func(h *moduletest.FakeHost) {
				h.Reply(`^nvme discover .* -o json$`, moduletest.Reply{RC: 1, Stderr: "discover: unrecognized option '-o'\n"})
				h.Reply(`^nvme discover -t rdma -a 148\.187\.104\.85 -s 4420 -w 148\.187\.104\.86$`, moduletest.Reply{Stdout: cscs})
			},
		},
		{
			Name:       "refused",
			Body:       `transport = "rdma"` + "\n" + `address = "10.68.20.10"`,
			Setup:      func(h *moduletest.FakeHost) { nvmefake.New(target("tcp")).Install(h) },
			WantFailed: true,
		},
		{
			Name:       "reset",
			Body:       `transport = "rdma"` + "\n" + `address = "192.168.1.113"`,
			Setup:      func(h *moduletest.FakeHost) { h.Reply(`^nvme discover`, moduletest.Reply{RC: 139, Stderr: reset}) },
			WantFailed: true,
		},
	}, `^nvme discover `))
}

func apply(t *testing.T, h module.Host, body string) module.ApplyResponse {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(body), "t.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	m := New()
	args, diags := hcldec.Decode(f.Body, m.Spec(), nil)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	resp, err := m.Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func subsystems(t *testing.T, resp module.ApplyResponse) []string {
	t.Helper()
	var out []string
	for _, v := range resp.Outputs.GetAttr("subsystems").AsValueSlice() {
		out = append(out, v.AsString())
	}
	return out
}

func TestRecordsFromSamples(t *testing.T) {
	for _, c := range []struct {
		sample, transport string
		records           int
		want              []string
		message           string
	}{
		{"nvme-cli/discover-tcp-json-2-records-pr940.txt", "tcp", 2, []string{"storage1", "storage2"}, "2 record(s)"},
		{"nvme-cli/discover-rdma-cscs-1-record.txt", "rdma", 1, []string{"nqn.2014-08.org.nvmexpress:NVMf:uuid:9db415d9-7cac-4d1c-bbbd-a45b54838530"}, "1 record(s)"},
		{"nvme-cli/discover-connect-list-subsys-rdma-3-paths-smartx.txt", "rdma", 1, []string{"nqn.2020-12.com.smartx:system:sub1"}, "(58 announced)"},
		{"nvme-cli/discover-rdma-2016-numeric-fields-commitmsg.txt", "rdma", -1, nil, "record(s)"},
		{"nvme-cli/discover-connect-tcp-tls-2.x-loopback.txt", "tcp", 2, nil, "2 record(s)"},
		{"nvme-cli/discover-fc-2-records-commitmsg.txt", "rdma", 2, nil, "2 record(s)"},
	} {
		t.Run(c.sample, func(t *testing.T) {
			data := string(samples.Read(t, c.sample))
			if strings.Contains(c.sample, "smartx") {
				data = data[:strings.Index(data, "[root@57-71 ~]# nvme connect")]
			}
			if strings.Contains(c.sample, "tls") {
				data = data[:strings.Index(data, "connecting to device")]
			}
			h := moduletest.NewFakeHost("init1")
			h.Reply(`^nvme discover`, moduletest.Reply{Stdout: data})
			resp := apply(t, h, `transport = "`+c.transport+`"`+"\naddress = \"10.0.0.1\"")
			if resp.Failed {
				t.Fatalf("failed: %s", resp.Message)
			}
			recs := resp.Outputs.GetAttr("records")
			if c.records >= 0 && recs.LengthInt() != c.records {
				t.Errorf("records = %d, want %d", recs.LengthInt(), c.records)
			}
			if c.records < 0 && recs.LengthInt() == 0 {
				t.Error("no records")
			}
			if c.want != nil && strings.Join(subsystems(t, resp), " ") != strings.Join(c.want, " ") {
				t.Errorf("subsystems = %v, want %v", subsystems(t, resp), c.want)
			}
			if !strings.Contains(resp.Message, c.message) {
				t.Errorf("message %q does not contain %q", resp.Message, c.message)
			}
		})
	}
}

func TestRecordFields(t *testing.T) {
	h := moduletest.NewFakeHost("init1")
	nvmefake.New(target("rdma", "tcp")).Install(h)
	resp := apply(t, h, `transport = "tcp"`+"\naddress = \"10.68.20.10\"\nport = 4420")
	r := resp.Outputs.GetAttr("records").Index(cty.NumberIntVal(0))
	for k, want := range map[string]string{"trtype": "tcp", "subtype": "nvme subsystem", "trsvcid": "4420", "subnqn": nqn, "traddr": "10.68.20.10"} {
		if got := r.GetAttr(k).AsString(); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

func TestFailuresAreClassified(t *testing.T) {
	noDriver := samples.Read(t, "nvme-cli/error-no-nvme-driver-failed-to-scan-topology.txt")
	fabricsRead := samples.Read(t, "nvme-cli/error-discover-tcp-failed-to-read-nvme-fabrics-commitmsg.txt")
	for _, c := range []struct {
		name string
		r    moduletest.Reply
		want string
	}{
		{"refused", moduletest.Reply{RC: 1, Stderr: "Failed to write to /dev/nvme-fabrics: Connection refused\n"}, "connection refused by the target"},
		{"no-driver", moduletest.Reply{RC: 1, Stderr: section(noDriver, "$ nvme discover -t rdma")}, "nvme driver not loaded"},
		{"old-kernel", moduletest.Reply{RC: 1, Stderr: section(fabricsRead, "$ nvme discover")}, "kernel does not support"},
		{"not-installed", moduletest.Reply{RC: 127, Stderr: "sh: 1: nvme: not found\n"}, "nvme-cli is not installed"},
		{"empty", moduletest.Reply{}, "empty output"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := moduletest.NewFakeHost("init7")
			h.Reply(`^nvme discover`, c.r)
			f, _ := hclsyntax.ParseConfig([]byte(`transport = "rdma"`+"\naddress = \"10.0.0.1\""), "t.hcl", hcl.InitialPos)
			args, _ := hcldec.Decode(f.Body, New().Spec(), nil)
			resp, err := New().Apply(context.Background(), module.ApplyRequest{Host: h, Args: args})
			msg := resp.Message
			if err != nil {
				msg = err.Error()
			} else if !resp.Failed {
				t.Fatalf("not failed: %s", resp.Message)
			}
			if !strings.Contains(msg, c.want) || !strings.Contains(msg, "init7") {
				t.Errorf("message %q should contain %q and the host", msg, c.want)
			}
			if !resp.Outputs.IsNull() {
				t.Error("a failed discovery must not have outputs")
			}
		})
	}
}

func TestValidateTransport(t *testing.T) {
	f, _ := hclsyntax.ParseConfig([]byte(`transport = "fc"`+"\naddress = \"x\""), "t.hcl", hcl.InitialPos)
	if _, diags := hcldec.Decode(f.Body, New().Spec(), nil); !diags.HasErrors() || !strings.Contains(diags.Error(), "rdma, tcp") {
		t.Errorf("transport fc: diags = %v", diags)
	}
}

// Issue 19.7: a target whose discovery controller listens only on the IANA
// discovery port 8009 offers nothing at 4420 over TCP; the module tries
// 8009 and says which port answered.
func TestTCPDiscoveryPortFallback(t *testing.T) {
	h := moduletest.NewFakeHost("client1")
	tg := target("tcp")
	tg.Port = DiscoveryPort
	nvmefake.New(tg).Install(h)
	resp := apply(t, h, `transport = "tcp"`+"\n"+`address = "10.68.20.10"`)
	if resp.Failed || resp.Outputs.GetAttr("port").AsBigFloat().String() != "8009" || !strings.Contains(resp.Message, "port 4420 offered nothing") {
		t.Fatalf("fallback: failed %t %q port %v", resp.Failed, resp.Message, resp.Outputs)
	}
	if len(resp.Evidence) != 2 {
		t.Errorf("evidence of both attempts: %v", resp.Evidence)
	}
	// RDMA does not fall back, nor does fallback_port = 0.
	for _, body := range []string{`transport = "rdma"`, `transport = "tcp"` + "\nfallback_port = 0"} {
		h := moduletest.NewFakeHost("client1")
		nvmefake.New(tg).Install(h)
		if resp := apply(t, h, body+"\n"+`address = "10.68.20.10"`); !resp.Failed || strings.Contains(resp.Message, "8009") {
			t.Errorf("%q: failed %t %q", body, resp.Failed, resp.Message)
		}
	}
	// Nothing at either port: failed, both named.
	h = moduletest.NewFakeHost("client1")
	nvmefake.New(target("rdma")).Install(h)
	if resp := apply(t, h, `transport = "tcp"`+"\n"+`address = "10.68.20.10"`); !resp.Failed || !strings.Contains(resp.Message, "the discovery port 8009 offers nothing either") {
		t.Errorf("neither: failed %t %q", resp.Failed, resp.Message)
	}
}
