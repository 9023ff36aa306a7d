package gpfslog

import (
	"context"
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

// Log is the "gpfs_log" module. The zero value is ready to use.
type Log struct{}

// New returns the gpfs_log module.
func New() *Log { return &Log{} }

// ID returns "gpfs_log".
func (*Log) ID() string { return "gpfs_log" }

// Spec describes the module's arguments.
func (*Log) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{"path": &hcldec.DefaultSpec{
		Primary: &hcldec.AttrSpec{Name: "path", Type: cty.String},
		Default: &hcldec.LiteralSpec{Value: cty.StringVal(gpfscmd.DefaultLogPath)},
	}}
}

var outputsType = cty.Object(map[string]cty.Type{
	"start_found":       cty.Bool,
	"verbs_started":     cty.Bool,
	"connected_to":      cty.List(cty.String),
	"closed":            cty.List(cty.String),
	"library_not_found": cty.Bool,
	"errors":            cty.List(cty.String),
	"lines":             cty.Number,
})

// Outputs summarise the current daemon run's RDMA messages.
func (*Log) Outputs() cty.Type { return outputsType }

// Validate checks that path is absolute when known.
func (*Log) Validate(args cty.Value) hcl.Diagnostics {
	args, _ = args.UnmarkDeep()
	if p := args.GetAttr("path"); p.IsKnown() && !p.IsNull() && (p.AsString() == "" || p.AsString()[0] != '/') {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid path", Detail: fmt.Sprintf("path must be absolute, got %q.", p.AsString())}}
	}
	return nil
}

// Doc documents the module.
func (*Log) Doc() module.Doc {
	return module.Doc{
		Summary: "Summarises what the GPFS log (mmfs.log.latest) says about RDMA since the daemon last started. Read-only.",
		Args:    map[string]string{"path": "The log to read, default \"/var/adm/ras/mmfs.log.latest\"."},
		Outputs: map[string]string{
			"start_found":       "False when the log shows no daemon start (it is read from the last one on); the outputs then cover all of it.",
			"verbs_started":     "A \"VERBS RDMA started\" line was logged.",
			"connected_to":      "Peers (name, else IP) with a \"VERBS RDMA connected to\" line.",
			"closed":            "Peers with a closed-connection or disconnect line.",
			"library_not_found": "The RDMA library (libibverbs) could not be loaded.",
			"errors":            "Error lines ([E], VERBS RDMA errors) as logged, without their timestamp.",
			"lines":             "Number of log lines since the daemon started (counted on the host, which sends only the lines the summary reads).",
		},
		Example: `step "gpfs_log" "log" {
  hosts = "gpfs"
}

step "assert" "no_verbs_errors" {
  severity      = "warn"
  condition     = length(step.log.closed) == 0
  error_message = "${host.name}: RDMA connections closed: ${join(", ", step.log.closed)}"
}`,
	}
}

// Reads implements module.ReadOnly.
func (*Log) Reads(v cty.Value) string {
	return "reads " + v.GetAttr("path").AsString()
}

// Apply reads and summarises the log.
func (*Log) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	path := req.Args.GetAttr("path").AsString()
	s, raw, exists, err := gpfscmd.ReadLog(ctx, req.Host, path)
	if err != nil {
		return resp, err
	}
	resp.Evidence = map[string]string{path: raw}
	resp.Outputs = cty.ObjectVal(map[string]cty.Value{
		"start_found": cty.BoolVal(s.StartFound), "verbs_started": cty.BoolVal(s.VerbsStarted),
		"connected_to": module.StringList(s.ConnectedTo), "closed": module.StringList(s.Closed), "library_not_found": cty.BoolVal(s.LibraryNotFound),
		"errors": module.StringList(s.Errors), "lines": cty.NumberIntVal(int64(s.Lines)),
	})
	switch {
	case !exists:
		resp.Message = path + " does not exist"
	default:
		resp.Message = fmt.Sprintf("%d entries since the daemon started: verbs started %t, %d RDMA peer(s) connected, %d closed, %d error line(s)",
			s.Lines, s.VerbsStarted, len(s.ConnectedTo), len(s.Closed), len(s.Errors))
		if !s.StartFound {
			resp.Message += " (the log shows no daemon start)"
		}
		if s.Skipped != "" {
			resp.Message += " (" + s.Skipped + ")"
		}
	}
	return resp, nil
}

var (
	_ module.Module    = (*Log)(nil)
	_ module.Describer = (*Log)(nil)
)
