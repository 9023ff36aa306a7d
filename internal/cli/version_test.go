package cli

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	stamped := &debug.BuildInfo{
		Main: debug.Module{Path: "github.com/provadev/prova", Version: "v0.0.0-20261201084626-322609b238e7+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "322609b238e73b8b644e5f083c174e949c03773d"},
			{Key: "vcs.time", Value: "2026-12-01T08:46:26Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	clean := &debug.BuildInfo{
		Main:     debug.Module{Version: "v1.4.0"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "false"}},
	}
	for _, c := range []struct {
		name, set string
		bi        *debug.BuildInfo
		want      string
	}{
		{"stamped build", "dev", stamped, "v0.0.0-20261201084626-322609b238e7+dirty (revision 322609b238e7 of 2026-12-01T08:46:26Z, modified)"},
		{"tagged clean build", "dev", clean, "v1.4.0 (revision abc123)"},
		{"-X version wins over the module version", "v2.0.0", clean, "v2.0.0 (revision abc123)"},
		{"go test or -buildvcs=false", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel) (no VCS revision in the build information)"},
		{"no build info", "dev", nil, "(devel) (no VCS revision in the build information)"},
	} {
		if got := versionOf(c.set, c.bi); got != c.want {
			t.Errorf("%s: versionOf = %q, want %q", c.name, got, c.want)
		}
	}
}
