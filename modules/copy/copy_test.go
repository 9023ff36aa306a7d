package copy

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/provadev/prova/engine/module/moduletest"
)

var (
	reSum   = regexp.MustCompile(`^sha256sum -- (\S+)$`)
	reStat  = regexp.MustCompile(`^stat -c %a -- (\S+)$`)
	reChmod = regexp.MustCompile(`^chmod ([0-7]+) (\S+)(?: && mv -f -- (\S+) (\S+))?$`)
	reRm    = regexp.MustCompile(`^rm -f -- (\S+)$`)
)

// coreutils models sha256sum, stat, chmod, mv and rm on the fake host's
// file map.
func coreutils(h *moduletest.FakeHost) {
	h.Handle(reSum.String(), func(cmd string, _ []byte) moduletest.Reply {
		p := reSum.FindStringSubmatch(cmd)[1]
		f, ok := h.File(p)
		if !ok {
			return moduletest.Reply{RC: 1, Stderr: "sha256sum: " + p + ": No such file or directory\n"}
		}
		return moduletest.Reply{Stdout: sum(f.Data) + "  " + p + "\n"}
	})
	h.Handle(reStat.String(), func(cmd string, _ []byte) moduletest.Reply {
		p := reStat.FindStringSubmatch(cmd)[1]
		f, ok := h.File(p)
		if !ok {
			return moduletest.Reply{RC: 1, Stderr: "stat: cannot statx '" + p + "': No such file or directory\n"}
		}
		return moduletest.Reply{Stdout: fmt.Sprintf("%o\n", moduletest.Octal(f.Mode))}
	})
	h.Handle(reChmod.String(), func(cmd string, _ []byte) moduletest.Reply {
		m := reChmod.FindStringSubmatch(cmd)
		f, ok := h.File(m[2])
		if !ok {
			return moduletest.Reply{RC: 1, Stderr: "chmod: cannot access '" + m[2] + "': No such file or directory\n"}
		}
		mode, _ := parseMode(m[1])
		h.SetFile(m[2], f.Data, fileMode(mode))
		if m[3] != "" {
			f, _ := h.File(m[3])
			h.RemoveFile(m[3])
			h.SetFile(m[4], f.Data, f.Mode)
		}
		return moduletest.Reply{}
	})
	h.Handle(reRm.String(), func(cmd string, _ []byte) moduletest.Reply {
		h.RemoveFile(reRm.FindStringSubmatch(cmd)[1])
		return moduletest.Reply{}
	})
}

func withFile(path, data string, mode uint32) func(*moduletest.FakeHost) {
	return func(h *moduletest.FakeHost) {
		coreutils(h)
		h.SetFile(path, []byte(data), fileMode(mode))
	}
}

var probes = []string{reSum.String(), reStat.String()}

func TestConformance(t *testing.T) {
	const ports = `
content     = "mlx5_0/1\nmlx5_1/1\n"
destination = "/var/mmfs/etc/verbs.ports"
mode        = "0600"`
	moduletest.Run(t, New(), []moduletest.Case{
		{Name: "content_create", Body: ports, Setup: coreutils, Probes: probes},
		{Name: "content_update", Body: ports, Setup: withFile("/var/mmfs/etc/verbs.ports", "mlx5_0/1\n", 0o644), Probes: probes},
		{Name: "content_same", Body: ports, Setup: withFile("/var/mmfs/etc/verbs.ports", "mlx5_0/1\nmlx5_1/1\n", 0o600), Probes: probes},
		{Name: "mode_only", Body: ports, Setup: withFile("/var/mmfs/etc/verbs.ports", "mlx5_0/1\nmlx5_1/1\n", 0o644), Probes: probes},
		{
			Name:    "source_file",
			Body:    `source = "files/ceph.conf"` + "\n" + `destination = "/etc/ceph/ceph.conf"`,
			BaseDir: "testdata",
			Setup:   coreutils,
			Probes:  probes,
		},
		{
			Name:  "setuid",
			Body:  `content = "#!/bin/sh\n"` + "\n" + `destination = "/usr/local/bin/helper"` + "\n" + `mode = "4755"`,
			Setup: coreutils, Probes: probes,
		},
		{
			Name:    "fetch",
			Body:    `source = "/var/adm/ras/mmfs.log.latest"` + "\n" + `destination = "logs/fake1/mmfs.log"` + "\n" + `fetch = true`,
			BaseDir: t.TempDir(),
			Setup:   withFile("/var/adm/ras/mmfs.log.latest", "mmfsd ready\n", 0o644),
			Probes:  probes,
		},
		{
			Name: "install_fails",
			Body: ports,
			Setup: func(h *moduletest.FakeHost) {
				coreutils(h)
				h.Reply(`&& mv`, moduletest.Reply{RC: 1, Stderr: "mv: cannot move '/var/mmfs/etc/.verbs.ports.prova-2d1f0c5a3b6e': Read-only file system\n"})
			},
			Probes:     probes,
			WantFailed: true,
		},
	})
}
