package cli

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Version is prova's version when set at build time with
// -ldflags "-X github.com/provadev/prova/internal/cli.Version=v1.2.3";
// otherwise the module version and VCS revision the Go toolchain records
// in the build information are used.
var Version = "dev"

// version is prova's version as printed by `prova version`, `prova
// --version` and carried in run records and reports: the module version,
// then the VCS revision it was built from and that commit's time, e.g.
// "v0.0.0-20261201084626-322609b238e7 (revision 322609b238e7 of
// 2026-12-01T08:46:26Z, modified)".
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return versionOf(Version, bi)
}

// versionOf builds the version text from the -X version (set != "dev"
// wins) and the build info (nil when the binary carries none).
func versionOf(set string, bi *debug.BuildInfo) string {
	v := set
	if v == "" || v == "dev" {
		v = "(devel)"
		if bi != nil && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	var rev, modified, vcs, when string
	if bi != nil {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs":
				vcs = s.Value
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			case "vcs.time":
				when = s.Value
			}
		}
	}
	if rev == "" {
		return v + " (no VCS revision in the build information)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	var b strings.Builder
	b.WriteString(v)
	b.WriteString(" (")
	if vcs != "" && vcs != "git" {
		b.WriteString(vcs + " ")
	}
	b.WriteString("revision " + rev)
	if when != "" {
		b.WriteString(" of " + when)
	}
	if modified == "true" {
		b.WriteString(", modified")
	}
	b.WriteString(")")
	return b.String()
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print prova's version: module version and VCS revision",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(a.stdout, "prova %s\n", version())
			return err
		},
	}
}
