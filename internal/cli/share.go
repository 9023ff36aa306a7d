package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// systemShare is where the packages install what prova ships: runbooks
// (runbooks/), lab scenarios (examples/lab/) and the demo.
const systemShare = "/usr/share/prova"

// shareDirs lists, in order, the directories that may hold what prova
// ships: $PROVA_SHARE, <binary>/../share/prova (an install under a
// prefix), the source tree the binary was built into (<repo>/bin/prova),
// and /usr/share/prova.
func shareDirs(env []string) []string {
	var dirs []string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PROVA_SHARE="); ok && v != "" {
			dirs = append(dirs, v)
		}
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			up := filepath.Dir(filepath.Dir(exe))
			dirs = append(dirs, filepath.Join(up, "share", "prova"), up)
		}
	}
	return append(dirs, systemShare)
}

// findScenario resolves the --scenario of `lab up`: a file that exists as
// given, else a shipped scenario by name ("gpfs-firewall" or
// "gpfs-firewall.hcl") under examples/lab/ of a share directory.
func findScenario(name string, env []string) (string, error) {
	if name == "" {
		return "", nil
	}
	if _, err := os.Stat(name); err == nil || strings.ContainsRune(name, os.PathSeparator) {
		return name, nil
	}
	base := strings.TrimSuffix(name, ".hcl") + ".hcl"
	var tried []string
	for _, d := range shareDirs(env) {
		p := filepath.Join(d, "examples", "lab", base)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		tried = append(tried, filepath.Dir(p))
	}
	return "", fmt.Errorf("lab up: no scenario file %q, and no shipped scenario %s in %s", name, base, strings.Join(tried, ", "))
}
