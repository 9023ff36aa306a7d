package verbsdiag

import (
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/internal/gpfscmd"
)

// Diagnose is the "verbs_diagnose" module. The zero value is ready to use.
type Diagnose struct{}

// New returns the verbs_diagnose module.
func New() *Diagnose { return &Diagnose{} }

// ID returns "verbs_diagnose".
func (*Diagnose) ID() string { return "verbs_diagnose" }

// Causes the module names.
const (
	CausePortMissing      = "port_missing"
	CausePortDown         = "port_down"
	CauseOFEDMissing      = "ofed_missing"
	CauseOFEDMismatch     = "ofed_mismatch"
	CauseLibraryNotLoaded = "library_not_loaded"
	CauseVerbsNotStarted  = "verbs_not_started"
	// CausePagepoolNotRegistered: the GPFS log says the pagepool could
	// not be registered with the HCA (too large for its memory
	// translation table), and VERBS RDMA shut down.
	CausePagepoolNotRegistered = "pagepool_not_registered"
	CauseConnectFailed         = "connect_failed"
	CausePeerSide              = "peer_side"
	CauseNone                  = "none"
)

// Spec describes the module's arguments.
func (*Diagnose) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"ofed_versions": &hcldec.AttrSpec{Name: "ofed_versions", Type: cty.Map(cty.String)},
		"missing":       &hcldec.AttrSpec{Name: "missing", Type: cty.List(cty.String)},
		"expected":      &hcldec.AttrSpec{Name: "expected", Type: cty.List(cty.String)},
		"log_path": &hcldec.DefaultSpec{
			Primary: &hcldec.AttrSpec{Name: "log_path", Type: cty.String},
			Default: &hcldec.LiteralSpec{Value: cty.StringVal(gpfscmd.DefaultLogPath)},
		},
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"node":        cty.String,
	"healthy":     cty.Bool,
	"cause":       cty.String,
	"explanation": cty.String,
	"evidence":    cty.List(cty.String),
	"missing":     cty.List(cty.String),
	// witnesses_agree / witnesses: see witness.go.
	"witnesses_agree": cty.Bool,
	"witnesses":       cty.List(cty.String),
})

// Outputs: the verdict, the cause code, a sentence and the evidence.
func (*Diagnose) Outputs() cty.Type { return outputsType }

// Validate has nothing to check across arguments.
func (*Diagnose) Validate(cty.Value) hcl.Diagnostics { return nil }

// Doc documents the module.
func (*Diagnose) Doc() module.Doc {
	return module.Doc{
		Summary: "Names, per node, the likely cause of missing RDMA peers (GPFS silent fallback to TCP) or of an unusable verbsPorts entry, from read-only evidence and cross-node facts. Read-only; assert on healthy.",
		Args: map[string]string{
			"ofed_versions": "Host -> OFED version of every node, e.g. { for h, r in per_host.ofed : h => r.version }; used to find the odd one out. Without it OFED versions are not compared.",
			"missing":       "Peers verbs_conn found missing on this node (step.conn.missing). Without it the module works them out itself from mmfsadm test verbs conn.",
			"expected":      "Peers this node must reach, as for verbs_conn. Default: every other node mmlscluster lists.",
			"log_path":      "GPFS log, default \"/var/adm/ras/mmfs.log.latest\".",
		},
		Outputs: map[string]string{
			"node":            "This node's GPFS daemon name (the inventory name when mmlscluster does not list it).",
			"healthy":         "True when every expected peer is connected over RDMA, VERBS RDMA started and every verbsPorts entry is Active/LinkUp.",
			"cause":           "port_missing, port_down, ofed_missing, ofed_mismatch, library_not_loaded, pagepool_not_registered, verbs_not_started, connect_failed, peer_side or none.",
			"explanation":     "One sentence naming the node, the missing peers and the cause.",
			"evidence":        "The facts that led to the cause, one per line (port states, versions, status, log lines).",
			"missing":         "The missing peers the diagnosis is about.",
			"witnesses_agree": "False when mmdiag --network or the GPFS log (VERBS RDMA lines since the daemon started) contradicts mmfsadm test verbs conn about a peer.",
			"witnesses":       "What each witness said (verbs conn, mmdiag --network, GPFS log), one line each, and where they disagree.",
		},
		Example: `step "verbs_diagnose" "diag" {
  hosts         = "gpfs"
  ofed_versions = { for h, r in per_host.ofed : h => r.version }
  missing       = step.conn.missing
}

step "assert" "rdma_in_use" {
  condition     = step.diag.healthy
  error_message = step.diag.explanation
}`,
	}
}

var (
	_ module.Module    = (*Diagnose)(nil)
	_ module.Describer = (*Diagnose)(nil)
)
