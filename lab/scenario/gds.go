package scenario

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/lab/model"
)

// The gds block chooses the GPUDirect Storage release every node has
// (version "1.14", "1.15" or "1.16", the gdscheck vocabulary) and whether it
// is installed: installed = true puts it on every node, false on none; left
// out, nodes with GPUs have it. io_stats = true loads nvidia-fs with
// rw_stats_enabled=1, so /proc/driver/nvidia-fs/stats counts reads. The ceph block sets the messenger settings
// of /etc/ceph/ceph.conf on nodes whose filesystems include "ceph", with
// node "NAME" blocks overriding one node. See docs/gds.md.
var gdsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "version"}, {Name: "installed"}, {Name: "io_stats"}}}

var cephAttrs = []hcl.AttributeSchema{{Name: "ms_type"}, {Name: "ms_cluster_type"}, {Name: "ms_public_type"}, {Name: "section"}}

var cephSchema = &hcl.BodySchema{Attributes: cephAttrs,
	Blocks: []hcl.BlockHeaderSchema{{Type: "node", LabelNames: []string{"name"}}}}

var cephNodeSchema = &hcl.BodySchema{Attributes: cephAttrs}

// gdsCeph holds what the gds and ceph blocks say.
type gdsCeph struct {
	gds          model.GDS
	installed    *bool // nil: nodes with GPUs
	ioStats      *bool // nil: keep what the base scenario said (default off)
	ceph         model.Ceph
	cephPerNode  map[string]model.Ceph
	cephNodeSeen map[string]*hcl.Range
}

func defaultGDSCeph() gdsCeph {
	return gdsCeph{gds: model.GDSReleases[model.DefaultGDSVersion], ceph: model.Ceph{MsType: "async+posix"},
		cephPerNode: map[string]model.Ceph{}, cephNodeSeen: map[string]*hcl.Range{}}
}

func (s *Scenario) decodeGDS(body hcl.Body) hcl.Diagnostics {
	c, diags := body.Content(gdsSchema)
	if diags.HasErrors() {
		return diags
	}
	a := attrs(c.Attributes)
	var v string
	if a.str("version", &v, &diags) {
		rel, ok := model.GDSReleases[v]
		if !ok {
			diags = append(diags, a.diag("version", "Invalid value for version",
				fmt.Sprintf("version must be one of %s; got %q.", strings.Join(gdsVersions(), ", "), v)))
		}
		io := s.extra.gds.IOStats
		s.extra.gds = rel
		s.extra.gds.IOStats = io
	}
	var inst bool
	if a.boolean("installed", &inst, &diags) {
		s.extra.installed = &inst
	}
	// io_stats: nvidia-fs loaded with rw_stats_enabled=1 (counts reads).
	var ioStats bool
	if a.boolean("io_stats", &ioStats, &diags) {
		s.extra.ioStats = &ioStats
	}
	return diags
}

func gdsVersions() []string {
	out := make([]string, 0, len(model.GDSReleases))
	for _, v := range []string{"1.14", "1.15", "1.16"} {
		if _, ok := model.GDSReleases[v]; ok {
			out = append(out, v)
		}
	}
	return out
}

func (s *Scenario) decodeCeph(body hcl.Body) hcl.Diagnostics {
	c, diags := body.Content(cephSchema)
	if diags.HasErrors() {
		return diags
	}
	diags = append(diags, applyCeph(attrs(c.Attributes), &s.extra.ceph)...)
	for _, b := range c.Blocks {
		name := b.Labels[0]
		if prev, dup := s.extra.cephNodeSeen[name]; dup {
			diags = append(diags, dupDiag(b, prev))
			continue
		}
		s.extra.cephNodeSeen[name] = &b.DefRange
		nc, d := b.Body.Content(cephNodeSchema)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		// A node block starts from what the ceph block's own attributes
		// say: those were applied above, whatever their place in the file.
		nodeConf := s.extra.ceph
		diags = append(diags, applyCeph(attrs(nc.Attributes), &nodeConf)...)
		s.extra.cephPerNode[name] = nodeConf
	}
	return diags
}

func applyCeph(a attrs, c *model.Ceph) hcl.Diagnostics {
	var diags hcl.Diagnostics
	a.str("ms_type", &c.MsType, &diags, append([]string{""}, model.MsTypes...)...)
	a.str("ms_cluster_type", &c.MsClusterType, &diags, append([]string{""}, model.MsTypes...)...)
	a.str("ms_public_type", &c.MsPublicType, &diags, append([]string{""}, model.MsTypes...)...)
	if a.str("section", &c.Section, &diags) && !validName(c.Section) && c.Section != "" {
		diags = append(diags, a.diag("section", "Invalid value for section",
			`section must be a ceph.conf section name such as "global", "osd" or "osd.3".`))
	}
	return diags
}

// applyGDSCeph sets n.GDS and n.Ceph from the gds and ceph blocks; it runs
// once the node's GPUs and file systems are known.
func (s *Scenario) applyGDSCeph(n *model.Node) {
	if inst := s.extra.installed; (inst == nil && len(n.GPUs) > 0) || (inst != nil && *inst) {
		g := s.extra.gds
		if s.extra.ioStats != nil {
			g.IOStats = *s.extra.ioStats
		}
		n.GDS = &g
	}
	if !n.HasFileSystem("ceph") {
		return
	}
	c, ok := s.extra.cephPerNode[n.Name]
	if !ok {
		c = s.extra.ceph
	}
	c.FSID = "6a1b2c3d-0000-4000-8000-000000000001"
	c.MonHost = n.DataAddress
	n.Ceph = &c
}
