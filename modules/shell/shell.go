package shell

import (
	"fmt"
	"regexp"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// Shell is the "shell" module. The zero value is ready to use.
type Shell struct{}

// New returns the shell module.
func New() *Shell { return &Shell{} }

// ID returns "shell".
func (*Shell) ID() string { return "shell" }

// Spec describes the module's arguments.
func (*Shell) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"command": module.NonEmpty(&hcldec.AttrSpec{Name: "command", Type: cty.String, Required: true}),
		"check":   module.NonEmpty(&hcldec.AttrSpec{Name: "check", Type: cty.String}),
		"creates": module.NonEmpty(&hcldec.AttrSpec{Name: "creates", Type: cty.String}),
		"removes": module.NonEmpty(&hcldec.AttrSpec{Name: "removes", Type: cty.String}),
		"chdir":   module.NonEmpty(&hcldec.AttrSpec{Name: "chdir", Type: cty.String}),
		"env": &hcldec.ValidateSpec{
			Wrapped: &hcldec.AttrSpec{Name: "env", Type: cty.Map(cty.String)},
			Func:    validateEnv,
		},
		"stdin": &hcldec.AttrSpec{Name: "stdin", Type: cty.String},
	}
}

// Outputs is empty: the command's rc, stdout and stderr are the common
// step result attributes.
func (*Shell) Outputs() cty.Type { return cty.EmptyObject }

// Validate has nothing to check across arguments: each is checked by the
// spec as it is decoded.
func (*Shell) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*Shell) Doc() module.Doc {
	return module.Doc{
		Summary: "Runs a command through /bin/sh on each host. With check, creates or removes it runs only when needed; without, it runs on every apply.",
		Args: map[string]string{
			"command": "Shell command to run (required). It is run as `sh -c COMMAND`.",
			"check":   "Read-only command; if it exits 0 the step is already done and command does not run.",
			"creates": "Remote path; if it exists the step is already done.",
			"removes": "Remote path; if it does not exist the step is already done.",
			"chdir":   "Remote directory to run the guards and the command in.",
			"env":     "Map of environment variables for check and command. Names must be shell identifiers.",
			"stdin":   "Text written to the command's standard input.",
		},
		Outputs: map[string]string{},
		Example: `step "shell" "enable_rdma_cm" {
  hosts   = "nsd_servers"
  command = "modprobe rdma_cm"
  check   = "grep -q '^rdma_cm ' /proc/modules"
}

step "shell" "build_tools" {
  command = "make install"
  chdir   = "/opt/src/tools"
  creates = "/usr/local/bin/tools"
  env     = { PREFIX = "/usr/local" }
}`,
	}
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func validateEnv(v cty.Value) hcl.Diagnostics {
	v, _ = v.UnmarkDeep()
	if !v.IsKnown() || v.IsNull() {
		return nil
	}
	var diags hcl.Diagnostics
	names := make([]string, 0, v.LengthInt())
	for k := range v.AsValueMap() {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !envName.MatchString(k) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid environment variable name",
				Detail:   fmt.Sprintf("%q is not a valid name: use letters, digits and underscores, not starting with a digit.", k),
			})
		}
	}
	return diags
}

// StructArgs implements module.StructArgs: Validate checks nothing and
// Plan reads its arguments only from the struct, so the engine plans a
// step without making the arguments' cty object on every host.
func (*Shell) StructArgs() {}

var (
	_ module.Module     = (*Shell)(nil)
	_ module.Describer  = (*Shell)(nil)
	_ module.StructArgs = (*Shell)(nil)
)
