package copy

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

type args struct {
	Source      *string `cty:"source"`
	Content     *string `cty:"content"`
	Destination string  `cty:"destination"`
	Mode        string  `cty:"mode"`
	Fetch       bool    `cty:"fetch"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Copy) NewArgs() any { return new(args) }

// withMode adds the parsed mode to the arguments module.Args returned.
func withMode(a args, err error) (args, uint32, error) {
	if err != nil {
		return a, 0, err
	}
	m, err := parseMode(a.Mode)
	return a, m, err
}

// local resolves a local path against the runbook's directory.
func local(baseDir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(baseDir, p)
}

// data returns the bytes to install: content, or the local source file.
func (a args) data(baseDir string) ([]byte, error) {
	if a.Content != nil {
		return []byte(*a.Content), nil
	}
	if a.Source == nil {
		return nil, fmt.Errorf("copy: neither source nor content is set")
	}
	b, err := os.ReadFile(local(baseDir, *a.Source))
	if err != nil {
		return nil, fmt.Errorf("copy: read source: %w", err)
	}
	return b, nil
}

func outputs(sum string) cty.Value {
	return cty.ObjectVal(map[string]cty.Value{"checksum": cty.StringVal(sum)})
}

// Plan compares the file on the host (or, with fetch, the local file) with
// what it should be, by checksum and mode.
func (*Copy) Plan(ctx context.Context, req module.PlanRequest) (module.PlanResponse, error) {
	a, mode, err := withMode(module.Args[args](req))
	if err != nil {
		return module.PlanResponse{}, err
	}
	if a.Fetch {
		return planFetch(ctx, req.Host, a, mode, req.BaseDir)
	}
	data, err := a.data(req.BaseDir)
	if err != nil {
		return module.PlanResponse{}, err
	}
	cur, err := remoteState(ctx, req.Host, a.Destination)
	if err != nil {
		return module.PlanResponse{}, fmt.Errorf("copy: %w", err)
	}
	return diff(a.Destination, cur, sum(data), mode), nil
}

// Apply installs or fetches the file when its checksum or mode differ.
func (c *Copy) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(c.Outputs())}
	a, mode, err := withMode(module.Args[args](req))
	if err != nil {
		return resp, err
	}
	plan := req.Planned
	if plan == nil {
		p, err := c.Plan(ctx, module.PlanRequest{Host: req.Host, Args: req.Args, Typed: req.Typed, BaseDir: req.BaseDir})
		if err != nil {
			return resp, err
		}
		plan = &p
	}
	if a.Fetch {
		return applyFetch(ctx, req.Host, a, mode, req.BaseDir, *plan)
	}
	data, err := a.data(req.BaseDir)
	if err != nil {
		return resp, err
	}
	want := sum(data)
	resp.Outputs = outputs(want)
	content, chmod := needs(*plan)
	h, dest := req.Host, a.Destination
	switch {
	case plan.Action == module.NoOp:
		return resp, nil
	case content:
		tmp := path.Join(path.Dir(dest), "."+path.Base(dest)+".prova-"+short(want))
		if err := h.Put(ctx, tmp, bytes.NewReader(data), fileMode(mode)); err != nil {
			return resp, fmt.Errorf("copy: upload %s to %s: %w", dest, h.Name(), err)
		}
		install := module.Command("chmod", modeString(mode), tmp) + " && " + module.Command("mv", "-f", "--", tmp, dest)
		if err := run(ctx, h, install, &resp); err != nil || resp.Failed {
			if err == nil {
				// Best effort: the error that matters is the install's.
				_, _ = module.Capture(ctx, h, module.Command("rm", "-f", "--", tmp))
			}
			return resp, err
		}
	case chmod:
		if err := run(ctx, h, module.Command("chmod", modeString(mode), dest), &resp); err != nil || resp.Failed {
			return resp, err
		}
	}
	resp.Changed = true
	resp.Message = plan.Summary
	return resp, nil
}

// run runs cmd and marks resp failed when it exits non-zero.
func run(ctx context.Context, h module.Host, cmd string, resp *module.ApplyResponse) error {
	out, err := module.Capture(ctx, h, cmd)
	if err != nil {
		return fmt.Errorf("copy: %w", err)
	}
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if out.RC != 0 {
		resp.Failed = true
		resp.Message = fmt.Sprintf("%s exited with rc %d: %s", cmd, out.RC, strings.TrimSpace(out.Stderr))
	}
	return nil
}

// fileMode converts an octal mode with special bits to an fs.FileMode.
func fileMode(m uint32) fs.FileMode {
	fm := fs.FileMode(m & 0o777)
	if m&0o4000 != 0 {
		fm |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		fm |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		fm |= fs.ModeSticky
	}
	return fm
}

// octal is the inverse of fileMode.
func octal(fm fs.FileMode) uint32 {
	m := uint32(fm.Perm())
	if fm&fs.ModeSetuid != 0 {
		m |= 0o4000
	}
	if fm&fs.ModeSetgid != 0 {
		m |= 0o2000
	}
	if fm&fs.ModeSticky != 0 {
		m |= 0o1000
	}
	return m
}
