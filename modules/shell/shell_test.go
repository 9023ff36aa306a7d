package shell

import (
	"regexp"
	"testing"

	"github.com/provadev/prova/engine/module/moduletest"
)

var testE = regexp.MustCompile(`test -e (\S+)$`)

// files models test -e on the fake host's file map.
func files(h *moduletest.FakeHost) {
	h.Handle(`test -e `, func(cmd string, _ []byte) moduletest.Reply {
		if _, ok := h.File(testE.FindStringSubmatch(cmd)[1]); ok {
			return moduletest.Reply{}
		}
		return moduletest.Reply{RC: 1}
	})
}

func TestConformance(t *testing.T) {
	moduletest.Run(t, New(), []moduletest.Case{
		{
			Name:          "unconditional",
			Body:          `command = "echo hello"`,
			Setup:         func(h *moduletest.FakeHost) { h.Reply(`^sh -c 'echo hello'$`, moduletest.Reply{Stdout: "hello\n"}) },
			NotIdempotent: true,
		},
		{
			Name: "creates_missing",
			Body: `
command = "make install"
chdir   = "/opt/src/tools"
creates = "/usr/local/bin/tools"
env     = { PREFIX = "/usr/local", CFLAGS = "-O2 -g" }`,
			Setup: func(h *moduletest.FakeHost) {
				files(h)
				h.Handle(`^cd -- /opt/src/tools && CFLAGS='-O2 -g' PREFIX=/usr/local sh -c 'make install'$`,
					func(string, []byte) moduletest.Reply {
						h.SetFile("/usr/local/bin/tools", []byte("elf"), 0o755)
						return moduletest.Reply{Stdout: "installed\n"}
					})
			},
			Probes: []string{`^cd -- /opt/src/tools && test -e /usr/local/bin/tools$`},
		},
		{
			Name: "creates_exists",
			Body: `
command = "make install"
creates = "/usr/local/bin/tools"`,
			Setup: func(h *moduletest.FakeHost) {
				files(h)
				h.SetFile("/usr/local/bin/tools", []byte("elf"), 0o755)
			},
			Probes: []string{`^test -e /usr/local/bin/tools$`},
		},
		{
			Name: "removes",
			Body: `
command = "rm -f /var/run/gpfs.lock"
removes = "/var/run/gpfs.lock"`,
			Setup: func(h *moduletest.FakeHost) {
				files(h)
				h.SetFile("/var/run/gpfs.lock", nil, 0o644)
				h.Handle(`^sh -c 'rm -f /var/run/gpfs.lock'$`, func(string, []byte) moduletest.Reply {
					h.RemoveFile("/var/run/gpfs.lock")
					return moduletest.Reply{}
				})
			},
			Probes: []string{`^test -e /var/run/gpfs.lock$`},
		},
		{
			Name: "check",
			Body: `
command = "modprobe rdma_cm"
check   = "grep -q '^rdma_cm ' /proc/modules"`,
			Setup: func(h *moduletest.FakeHost) {
				loaded := false
				h.Handle(`^sh -c 'grep -q '`, func(string, []byte) moduletest.Reply {
					if loaded {
						return moduletest.Reply{}
					}
					return moduletest.Reply{RC: 1}
				})
				h.Handle(`^sh -c 'modprobe rdma_cm'$`, func(string, []byte) moduletest.Reply {
					loaded = true
					return moduletest.Reply{}
				})
			},
			Probes: []string{`^sh -c 'grep -q '"'"'\^rdma_cm '"'"' /proc/modules'$`},
		},
		{
			Name: "stdin",
			Body: `
command = "cat > /etc/motd"
stdin   = "managed by prova\n"
creates = "/etc/motd"`,
			Setup: func(h *moduletest.FakeHost) {
				files(h)
				h.Handle(`^sh -c 'cat > /etc/motd'$`, func(_ string, in []byte) moduletest.Reply {
					h.SetFile("/etc/motd", in, 0o644)
					return moduletest.Reply{}
				})
			},
			Probes: []string{`^test -e /etc/motd$`},
		},
		{
			Name: "failing",
			Body: `command = "systemctl restart gpfs"`,
			Setup: func(h *moduletest.FakeHost) {
				h.Reply(`systemctl`, moduletest.Reply{RC: 5, Stderr: "Failed to restart gpfs.service: Unit gpfs.service not found.\n"})
			},
			WantFailed:    true,
			NotIdempotent: true,
		},
	})
}
