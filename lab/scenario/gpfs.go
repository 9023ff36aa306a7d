package scenario

import (
	"maps"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// The gpfs block holds the GPFS configuration a new lab starts with, as
// if set with mmchconfig before the daemons started: config cluster-wide,
// node "NAME" { config = {...} } for one node (an mmchconfig -N NAME).
// Attribute names and values are checked by the GPFS simulator when the
// lab starts (lab/sim/gpfs.Seed). A scenario that extends another merges
// its config over the base's.
//
//	gpfs {
//	  config = { verbsRdma = "enable", verbsRdmaSend = "yes", verbsGPUDirectStorage = "yes" }
//	  node "gds02" { config = { verbsGPUDirectStorage = "no" } }
//	}
var gpfsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "config"}},
	Blocks: []hcl.BlockHeaderSchema{{Type: "node", LabelNames: []string{"name"}}}}

var gpfsNodeSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "config", Required: true}}}

// GPFSConfig returns the gpfs block's configuration: cluster-wide and per
// node name. Both are nil when the scenario has no gpfs block.
func (s *Scenario) GPFSConfig() (common map[string]string, perNode map[string]map[string]string) {
	return maps.Clone(s.gpfsCommon), maps.Clone(s.gpfsNodes)
}

func (s *Scenario) decodeGPFS(body hcl.Body) hcl.Diagnostics {
	c, diags := body.Content(gpfsSchema)
	if diags.HasErrors() {
		return diags
	}
	if m, ok := configMap(attrs(c.Attributes), &diags); ok {
		if s.gpfsCommon == nil {
			s.gpfsCommon = map[string]string{}
		}
		maps.Copy(s.gpfsCommon, m)
	}
	seen := map[string]*hcl.Range{}
	for _, b := range c.Blocks {
		name := b.Labels[0]
		if prev, dup := seen[name]; dup {
			diags = append(diags, dupDiag(b, prev))
			continue
		}
		seen[name] = &b.DefRange
		nc, d := b.Body.Content(gpfsNodeSchema)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if m, ok := configMap(attrs(nc.Attributes), &diags); ok {
			if s.gpfsNodes == nil {
				s.gpfsNodes = map[string]map[string]string{}
			}
			if s.gpfsNodes[name] == nil {
				s.gpfsNodes[name] = map[string]string{}
			}
			maps.Copy(s.gpfsNodes[name], m)
		}
	}
	return diags
}

func configMap(a attrs, diags *hcl.Diagnostics) (map[string]string, bool) {
	v, ok := a.value("config", cty.Map(cty.String), diags)
	if !ok || v.IsNull() {
		return nil, false
	}
	m := map[string]string{}
	for k, e := range v.AsValueMap() {
		if e.IsNull() {
			*diags = append(*diags, a.diag("config", "Invalid value for config",
				"config[\""+k+"\"] must be a string, as mmchconfig takes it."))
			return nil, false
		}
		m[k] = e.AsString()
	}
	return m, true
}
