package bench

import (
	"sync"
	"testing"

	"github.com/provadev/prova/engine/module/moduletest"
)

func TestConformance(t *testing.T) {
	f := load(t)
	serverProbe := `^pid=\$\(cat /tmp/prova-perftest-ib_write_\w+/pid`
	moduletest.Run(t, NewBlock(), []moduletest.Case{
		{
			Name:  "elbencho",
			Body:  "tool = \"elbencho\"\npath = \"/dev/nvme1n1\"\nthreads = 16\niodepth = 32\nruntime = \"2s\"",
			Setup: f.elbencho,
		},
		{
			Name:          "elbencho-write",
			Body:          "tool = \"elbencho\"\npath = \"/dev/nvme1n1\"\nmode = \"write\"\nblock_size = \"1M\"\nsize = \"1G\"\ncpu_capture = false",
			Setup:         f.elbencho,
			NotIdempotent: true,
		},
		{
			Name: "fio",
			Body: "tool = \"fio\"\npath = \"/dev/nvme1n1\"\niodepth = 32\nruntime = \"3s\"\nextra_args = [\"--norandommap\"]",
			Setup: func(h *moduletest.FakeHost) {
				f.common(h)
				h.Reply(`^fio `, moduletest.Reply{Stdout: f.fioJSON})
			},
		},
		{
			Name:  "elbencho-repeat",
			Body:  "tool = \"elbencho\"\npath = \"/dev/nvme1n1\"\nruntime = \"2s\"\nrepeat = 3\nnuma_node = 1",
			Setup: f.elbencho,
		},
	})
	moduletest.Run(t, NewPerftestClient(), []moduletest.Case{
		{
			Name: "perftest-client",
			Body: "tool = \"ib_write_lat\"\nserver_address = \"10.10.0.11\"\nrdma_device = \"mlx5_0\"\nblock_size = \"4K\"",
			Setup: func(h *moduletest.FakeHost) {
				f.common(h)
				h.Reply(`^ib_write_lat -d mlx5_0 -s 4096 10\.10\.0\.11$`, moduletest.Reply{Stdout: f.lat})
			},
		},
	})
	moduletest.Run(t, NewPerftestServer(), []moduletest.Case{
		{
			Name:   "perftest-server",
			Body:   "tool = \"ib_write_bw\"",
			Setup:  func(h *moduletest.FakeHost) { newServer(f).install(h) },
			Probes: []string{serverProbe},
		},
	})
	moduletest.Run(t, NewPerftestCollect(), []moduletest.Case{
		{
			Name: "perftest-collect",
			Body: "tool = \"ib_write_bw\"",
			Setup: func(h *moduletest.FakeHost) {
				s := newServer(f)
				s.started, s.exited = true, true
				s.install(h)
			},
			Probes: []string{serverProbe, `^test -d /tmp/prova-perftest-ib_write_bw$`},
		},
	})
}

// server models a perftest server's pid file and output on a fake host.
type server struct {
	f               fixture
	mu              sync.Mutex
	started, exited bool
}

func newServer(f fixture) *server { return &server{f: f} }

func (s *server) install(h *moduletest.FakeHost) {
	h.Handle(`^pid=\$\(cat`, func(string, []byte) moduletest.Reply {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.started && !s.exited {
			return moduletest.Reply{Stdout: "4242\n"}
		}
		return moduletest.Reply{RC: 1}
	})
	h.Handle(`^mkdir -p /tmp/prova-perftest-ib_write_bw && cd .* && \{ setsid ib_write_bw >out 2>&1 </dev/null & echo \$! >pid; \} && cat pid$`,
		func(string, []byte) moduletest.Reply {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.started = true
			return moduletest.Reply{Stdout: "4242\n"}
		})
	h.Handle(`^test -d /tmp/prova-perftest-ib_write_bw$`, func(string, []byte) moduletest.Reply {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.started {
			return moduletest.Reply{}
		}
		return moduletest.Reply{RC: 1}
	})
	h.Reply(`^kill -0 4242`, moduletest.Reply{RC: 1})
	h.Handle(`^cat -- /tmp/prova-perftest-ib_write_bw/out$`, func(string, []byte) moduletest.Reply {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.started {
			return moduletest.Reply{RC: 1, Stderr: "cat: /tmp/prova-perftest-ib_write_bw/out: No such file or directory\n"}
		}
		return moduletest.Reply{Stdout: s.f.bwServer}
	})
	h.Handle(`^rm -rf -- /tmp/prova-perftest-ib_write_bw$`, func(string, []byte) moduletest.Reply {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.started = false
		return moduletest.Reply{}
	})
}
