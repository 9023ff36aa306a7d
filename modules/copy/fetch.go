package copy

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// planFetch compares the host's file with the local copy.
func planFetch(ctx context.Context, h module.Host, a args, mode uint32, baseDir string) (module.PlanResponse, error) {
	remote, err := remoteState(ctx, h, *a.Source)
	if err != nil {
		return module.PlanResponse{}, fmt.Errorf("copy: %w", err)
	}
	if !remote.exists {
		// An earlier step may create it; apply will tell.
		return module.PlanResponse{Action: module.Unknown, Summary: fmt.Sprintf("fetch %s: not on the host at plan time", *a.Source)}, nil
	}
	cur, err := localState(local(baseDir, a.Destination))
	if err != nil {
		return module.PlanResponse{}, err
	}
	return diff(a.Destination, cur, remote.sum, mode), nil
}

// applyFetch copies the host's file to a temporary local file and renames it
// into place.
func applyFetch(ctx context.Context, h module.Host, a args, mode uint32, baseDir string, plan module.PlanResponse) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(cty.Object(map[string]cty.Type{"checksum": cty.String}))}
	dest := local(baseDir, a.Destination)
	content, chmod := needs(plan)
	switch {
	case plan.Action == module.Unknown || content:
		got, err := fetch(ctx, h, *a.Source, dest, mode)
		if err != nil {
			return resp, err
		}
		resp.Outputs = outputs(got)
	case chmod:
		if err := os.Chmod(dest, fileMode(mode)); err != nil {
			return resp, fmt.Errorf("copy: %w", err)
		}
	}
	if resp.Outputs.IsNull() {
		cur, err := localState(dest)
		if err != nil {
			return resp, err
		}
		resp.Outputs = outputs(cur.sum)
	}
	resp.Changed = plan.Action != module.NoOp
	resp.Message = plan.Summary
	return resp, nil
}

func fetch(ctx context.Context, h module.Host, src, dest string, mode uint32) (string, error) {
	dir := filepath.Dir(dest)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("copy: %w", err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".prova-*")
	if err != nil {
		return "", fmt.Errorf("copy: %w", err)
	}
	tmp := f.Name()
	hash := sha256.New()
	err = h.Get(ctx, src, io.MultiWriter(f, hash))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, fileMode(mode))
	}
	if err == nil {
		err = os.Rename(tmp, dest)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("copy: fetch %s from %s: %w", src, h.Name(), err)
	}
	return hex.EncodeToString(hash.Sum(nil)), nil
}
