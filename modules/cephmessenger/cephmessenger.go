package cephmessenger

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// DefaultPath is ceph.conf's usual place.
const DefaultPath = "/etc/ceph/ceph.conf"

// Messenger is the "ceph_messenger" module. The zero value is ready to use.
type Messenger struct{}

// New returns the ceph_messenger module.
func New() *Messenger { return &Messenger{} }

// ID returns "ceph_messenger".
func (*Messenger) ID() string { return "ceph_messenger" }

// Spec describes the module's arguments.
func (*Messenger) Spec() hcldec.Spec {
	return &hcldec.ObjectSpec{
		"path":             module.WithDefault("path", cty.String, cty.StringVal(DefaultPath)),
		"source":           module.WithDefault("source", cty.String, cty.StringVal("file")),
		"who":              module.WithDefault("who", cty.String, cty.StringVal("global")),
		"planned_settings": &hcldec.AttrSpec{Name: "planned_settings", Type: cty.Map(cty.String)},
		"waive":            module.WithDefault("waive", cty.Bool, cty.False),
		"justification":    &hcldec.AttrSpec{Name: "justification", Type: cty.String},
	}
}

var outputsType = cty.Object(map[string]cty.Type{
	"found":           cty.Bool,
	"ms_type":         cty.String,
	"ms_cluster_type": cty.String,
	"ms_public_type":  cty.String,
	"rdma":            cty.Bool,
	"findings":        cty.List(cty.String),
	"waived":          cty.Bool,
	"reason":          cty.String,
})

// Outputs are the effective settings and the guard's verdict.
func (*Messenger) Outputs() cty.Type { return outputsType }

// Validate checks source, the waiver's justification, and warns when the
// planned settings already select the RDMA messenger.
func (*Messenger) Validate(args cty.Value) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if args.IsNull() || !args.IsKnown() {
		return nil
	}
	if s := args.GetAttr("source"); s.IsKnown() && !s.IsNull() {
		switch s.AsString() {
		case "file", "config", "none":
		default:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid source",
				Detail: fmt.Sprintf(`source must be "file" (read ceph.conf), "config" (ceph config get) or "none" (planned_settings only); got %q.`, s.AsString())})
		}
	}
	if w, j := args.GetAttr("waive"), args.GetAttr("justification"); w.IsKnown() && !w.IsNull() && w.True() && j.IsKnown() &&
		(j.IsNull() || strings.TrimSpace(j.AsString()) == "") {
		diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Waiver without justification",
			Detail: "waive = true needs a justification: say why this cluster may run Ceph's RDMA messenger, and who decided."})
	}
	if p := args.GetAttr("planned_settings"); p.IsWhollyKnown() && !p.IsNull() {
		m := map[string]string{}
		for k, v := range p.AsValueMap() {
			if !v.IsNull() {
				m[k] = v.AsString()
			}
		}
		if f := ScanSettings(m); len(f) > 0 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: "Runbook plans Ceph's RDMA messenger",
				Detail: "planned_settings: " + strings.Join(f, ", ") + ". " + Reason})
		}
	}
	return diags
}

// Reason is why the guard refuses the RDMA messenger (DOMAIN.md §3).
const Reason = "Ceph's RDMA messenger (async+rdma) has been experimental for years: mainstream deployments use TCP, " +
	"documentation is thin, upgrades break it and the community cannot help. The gain is small anyway: Ceph's latency " +
	"sits in the OSD path and BlueStore, not in the network stack. Never in production. Want low latency? " +
	"Change the storage (GPFS, Weka, VAST), not Ceph's network stack."

// Doc documents the module.
func (*Messenger) Doc() module.Doc {
	return module.Doc{
		Summary: "Reads the effective Ceph messenger settings (ms_type, ms_cluster_type, ms_public_type) and fails when any is async+rdma, on the host or in planned_settings, unless waived with a justification. Read-only.",
		Args: map[string]string{
			"path":             "ceph.conf to read with source = \"file\" (default " + DefaultPath + ").",
			"source":           "\"file\" (default): read ceph.conf, every section; \"config\": run ceph config get WHO for each setting; \"none\": read nothing from the host, check planned_settings only.",
			"who":              "Daemon whose effective settings the outputs show: \"global\" (default), a type (\"osd\") or a daemon (\"osd.3\"); the most specific ceph.conf section wins. The RDMA guard looks at every section whatever who is.",
			"planned_settings": "Settings the runbook intends to write (ceph.conf keys in any spelling, e.g. from a copy or shell step's variables); async+rdma there fails the step too, and prova validate warns.",
			"waive":            "true lets async+rdma pass: the step is ok with a warning message carrying the justification, and its check is recorded as waived.",
			"justification":    "Why the RDMA messenger is accepted, and who decided; required when waive = true.",
		},
		Outputs: map[string]string{
			"found":           "False when there is no ceph.conf at path (source = \"file\"); the settings are then Ceph's defaults.",
			"ms_type":         "Effective ms_type for who (default async+posix).",
			"ms_cluster_type": "Effective ms_cluster_type (defaults to ms_type).",
			"ms_public_type":  "Effective ms_public_type (defaults to ms_type).",
			"rdma":            "True when any ms_* setting in any section, or in planned_settings, is async+rdma.",
			"findings":        "Where async+rdma was found: \"[osd] ms_cluster_type = async+rdma\", \"planned ms_type = async+rdma\".",
			"waived":          "True when rdma is true and the step passed because of waive.",
			"reason":          "Why the step failed or warned; empty when the messenger is not RDMA.",
		},
		Example: `step "ceph_messenger" "messenger" {
  hosts = "ceph"
}

step "ceph_messenger" "lab_exception" {
  hosts         = "ceph_lab"
  waive         = true
  justification = "isolated benchmark cluster, decided by storage team 2026-03, ticket STOR-123"
}`,
	}
}

var (
	_ module.Module    = (*Messenger)(nil)
	_ module.Describer = (*Messenger)(nil)
)
