package benchfanout

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Module packages of the binaries the harness builds.
const (
	provaPkg = "github.com/provadev/prova/cmd/prova"
	floorPkg = "github.com/provadev/prova/bench/fanout/floor"
	reapPkg  = "github.com/provadev/prova/bench/fanout/reap"
)

// Build compiles the floor and reap helpers into dir, and prova too unless
// prova names an existing binary (BENCHFANOUT_PROVA, e.g. bin/prova from
// make build). It looks ansible-playbook up in PATH.
func Build(ctx context.Context, dir, prova string) (Bins, error) {
	b := Bins{Floor: filepath.Join(dir, "floor"), Reap: filepath.Join(dir, "reap"), Prova: prova}
	pkgs := map[string]string{b.Floor: floorPkg, b.Reap: reapPkg}
	if prova == "" {
		b.Prova = filepath.Join(dir, "prova")
		pkgs[b.Prova] = provaPkg
	} else if _, err := os.Stat(prova); err != nil {
		return b, fmt.Errorf("prova binary: %w", err)
	}
	for out, pkg := range pkgs {
		if err := GoBuild(ctx, out, pkg); err != nil {
			return b, err
		}
	}
	if p, err := exec.LookPath("ansible-playbook"); err == nil {
		b.AnsiblePlaybook = p
	}
	return b, nil
}

// GoBuild runs go build -trimpath -o out pkg with CGO_ENABLED=0: a static
// binary, as make build builds prova. A plain go build links libc
// dynamically wherever a C compiler is found (os/user and net use it),
// and a dynamically linked floor had the loader's start-up and 1.5 MiB
// more of mapped files than the same program built static, so the floor
// and a prova from make build were not built alike (docs/performance.md,
// twelfth round).
func GoBuild(ctx context.Context, out, pkg string) error {
	goBin, err := exec.LookPath("go") // go test puts GOROOT/bin first in PATH
	if err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	cmd := exec.CommandContext(ctx, goBin, "build", "-trimpath", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, b)
	}
	return nil
}
