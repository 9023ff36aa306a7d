package bench

import (
	"strings"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/module/moduletest"
	"github.com/provadev/prova/internal/testkit/samples"
)

func TestPerftestClient(t *testing.T) {
	for _, c := range []struct {
		sample, tool string
		check        func(t *testing.T, resp module.ApplyResponse)
	}{
		{"perftest/ib_write_lat-rdma_cm-roce-dgx-spark.txt", "ib_write_lat", func(t *testing.T, resp module.ApplyResponse) {
			o := resp.Outputs
			if num(t, o, "lat_avg_us") != 1.47 || num(t, o, "lat_min_us") != 1.42 || num(t, o, "lat_p99_us") != 1.57 || num(t, o, "lat_p999_us") != 1.93 {
				t.Errorf("latency = %#v", o)
			}
			if !isNull(o, "mib_s") {
				t.Error("a latency test reports no throughput")
			}
		}},
		{"perftest/ib_read_lat-server-and-client-ib-mlx4-cpufreq-warning.txt", "ib_read_lat", nil},
		{"perftest/ib_write_bw-client-softroce-rxe0-65536.txt", "ib_write_bw", func(t *testing.T, resp module.ApplyResponse) {
			if g, m := num(t, resp.Outputs, "gbps"), num(t, resp.Outputs, "mib_s"); g <= 0 || m <= 0 {
				t.Errorf("gbps %v mib_s %v", g, m)
			}
		}},
		{"perftest/ib_write_bw-report_gbits-multi-qp-PARTIAL-dgx-spark.txt", "ib_write_bw", nil},
		{"perftest/ib_write_bw-conflicting-cpu-freq-warning-rfaas.txt", "ib_write_bw", nil},
		{"perftest/ib_read_bw-client-softroce-inline-warning.txt", "ib_read_bw", nil},
	} {
		t.Run(c.sample, func(t *testing.T) {
			out := string(samples.Read(t, c.sample))
			if i := strings.LastIndex(out, "]# "+c.tool+" "); i >= 0 && strings.Contains(c.sample, "server-and-client") {
				out = out[i+strings.Index(out[i:], "\n")+1:] // the client half, after its prompt line
			}
			h := moduletest.NewFakeHost("client1")
			load(t).common(h)
			h.Reply(`^`+c.tool+` `, moduletest.Reply{Stdout: out})
			resp := apply(t, NewPerftestClient(), h, "tool = \""+c.tool+"\"\nserver_address = \"10.0.0.1\"")
			if resp.Failed {
				t.Fatal(resp.Message)
			}
			if c.check != nil {
				c.check(t, resp)
			}
		})
	}
}

func TestPerftestNoDevice(t *testing.T) {
	for _, s := range []string{"perftest/no-hca-ib_write_lat.txt", "perftest/no-hca-ib_write_bw-client.txt", "perftest/no-hca-ib_read_lat.txt"} {
		h := moduletest.NewFakeHost("client1")
		load(t).common(h)
		h.Reply(`^ib_`, moduletest.Reply{RC: 1, Stdout: string(samples.Read(t, s))})
		tool := "ib_write_lat"
		if strings.Contains(s, "_bw") {
			tool = "ib_write_bw"
		}
		resp := apply(t, NewPerftestClient(), h, "tool = \""+tool+"\"\nserver_address = \"10.0.0.1\"")
		if !resp.Failed || !strings.Contains(resp.Message, "no RDMA device") || !strings.Contains(resp.Message, "client1") {
			t.Errorf("%s: failed=%t %q", s, resp.Failed, resp.Message)
		}
	}
}

// A server no client came to is stopped after max_wait and fails.
func TestCollectStopsAWaitingServer(t *testing.T) {
	f := load(t)
	h := moduletest.NewFakeHost("target1")
	s := newServer(f)
	s.started = true
	s.install(h)
	h.Reply(`^kill -0 4242`, moduletest.Reply{}) // alive
	h.Reply(`^kill 4242`, moduletest.Reply{})
	resp := apply(t, NewPerftestCollect(), h, "tool = \"ib_write_bw\"\nmax_wait = \"1s\"")
	if !resp.Failed || !strings.Contains(resp.Message, "still running after 1s") {
		t.Errorf("failed=%t %q", resp.Failed, resp.Message)
	}
	if !contains(h.Commands(), "kill 4242 2>/dev/null") || !contains(h.Commands(), "rm -rf -- /tmp/prova-perftest-ib_write_bw") {
		t.Errorf("commands = %v", h.Commands())
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
