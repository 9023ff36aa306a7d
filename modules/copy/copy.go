package copy

import (
	"fmt"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/lazyre"
)

// Copy is the "copy" module. The zero value is ready to use.
type Copy struct{}

// New returns the copy module.
func New() *Copy { return &Copy{} }

// ID returns "copy".
func (*Copy) ID() string { return "copy" }

// DefaultMode is the mode of installed files when none is given.
const DefaultMode = "0644"

// Spec describes the module's arguments.
func (*Copy) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"source":      module.NonEmpty(&hcldec.AttrSpec{Name: "source", Type: cty.String}),
		"content":     &hcldec.AttrSpec{Name: "content", Type: cty.String},
		"destination": module.NonEmpty(&hcldec.AttrSpec{Name: "destination", Type: cty.String, Required: true}),
		"mode": &hcldec.DefaultSpec{
			Primary: &hcldec.ValidateSpec{Wrapped: &hcldec.AttrSpec{Name: "mode", Type: cty.String}, Func: validateMode},
			Default: &hcldec.LiteralSpec{Value: cty.StringVal(DefaultMode)},
		},
		"fetch": &hcldec.DefaultSpec{
			Primary: &hcldec.AttrSpec{Name: "fetch", Type: cty.Bool},
			Default: &hcldec.LiteralSpec{Value: cty.False},
		},
	}
}

// Outputs has the SHA-256 checksum of the file as installed.
func (*Copy) Outputs() cty.Type {
	return cty.Object(map[string]cty.Type{"checksum": cty.String})
}

// Validate checks that exactly one of source and content is set, that fetch
// has a source, and that the remote path is absolute.
func (*Copy) Validate(args cty.Value) hcl.Diagnostics {
	args, _ = args.UnmarkDeep()
	if !args.IsKnown() || args.IsNull() {
		return nil
	}
	src, content := args.GetAttr("source"), args.GetAttr("content")
	dest, fetch := args.GetAttr("destination"), args.GetAttr("fetch")
	var diags hcl.Diagnostics
	bad := func(summary, detail string) {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail})
	}
	if src.IsKnown() && content.IsKnown() {
		switch {
		case src.IsNull() && content.IsNull():
			bad("Missing source or content", "The copy module needs either source (a local file) or content (the file's text).")
		case !src.IsNull() && !content.IsNull():
			bad("Conflicting arguments", "Only one of source and content may be set.")
		}
	}
	if !fetch.IsKnown() || fetch.IsNull() {
		return diags
	}
	remote, remoteName := dest, "destination"
	if fetch.True() {
		remote, remoteName = src, "source"
		if content.IsKnown() && !content.IsNull() {
			bad("Conflicting arguments", "With fetch = true the file comes from source on the host; content cannot be used.")
		}
	}
	if remote.IsKnown() && !remote.IsNull() && remote.AsString() != "" && remote.AsString()[0] != '/' {
		bad("Relative remote path", fmt.Sprintf("The %s %q is on the host and must be an absolute path.", remoteName, remote.AsString()))
	}
	return diags
}

var modePattern = lazyre.New(`^[0-7]{3,4}$`)

func validateMode(v cty.Value) hcl.Diagnostics {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() || modePattern.MatchString(v.AsString()) {
		return nil
	}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Invalid file mode",
		Detail:   fmt.Sprintf("%q is not an octal mode such as \"0644\" or \"0755\". Write it as a string.", v.AsString()),
	}}
}

// parseMode reads a mode validated by validateMode.
func parseMode(s string) (uint32, error) {
	m, err := strconv.ParseUint(s, 8, 32)
	if err != nil || m > 0o7777 {
		return 0, fmt.Errorf("copy: invalid mode %q", s)
	}
	return uint32(m), nil
}

// Doc documents the module.
func (*Copy) Doc() module.Doc {
	return module.Doc{
		Summary: "Installs a file on each host from a local file or inline content (or, with fetch, copies a host's file to the controller), idempotently by SHA-256 checksum and mode.",
		Args: map[string]string{
			"source":      "Local file to install, relative to the runbook's directory. With fetch = true: the absolute path of the file on the host.",
			"content":     "Text of the file to install, instead of source.",
			"destination": "Absolute path on the host. With fetch = true: the local path, relative to the runbook's directory (use host.name in it when fetching from several hosts).",
			"mode":        "Octal mode of the file as a string, default \"0644\".",
			"fetch":       "Copy the host's file (source) to the controller (destination) instead. Default false.",
		},
		Outputs: map[string]string{
			"checksum": "SHA-256 checksum (hex) of the file as installed or fetched.",
		},
		Example: `step "copy" "ceph_conf" {
  hosts       = "clients"
  source      = "files/ceph.conf"
  destination = "/etc/ceph/ceph.conf"
  mode        = "0644"
}

step "copy" "verbs_ports" {
  content     = "verbsPorts ${var.ports}\n"
  destination = "/var/mmfs/etc/verbs.ports"
  mode        = "0600"
}

step "copy" "collect_gpfs_log" {
  source      = "/var/adm/ras/mmfs.log.latest"
  destination = "logs/${host.name}/mmfs.log"
  fetch       = true
}`,
	}
}

var (
	_ module.Module    = (*Copy)(nil)
	_ module.Describer = (*Copy)(nil)
)
