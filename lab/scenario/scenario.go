package scenario

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/lab/model"
)

// Scenario is a parsed scenario file. Resolve it per node with Node.
type Scenario struct {
	Filename   string
	Name       string // cluster name
	Prefix     string // node name prefix; names are prefix01, prefix02, ...
	Servers    int    // the first Servers nodes are nsd_servers and quorum
	Nodes      int    // node count when the caller does not choose; 0 = caller's default
	NetPrefix  string // "10.10": data addresses are 10.10.x.y (text only)
	defaults   *hcl.BodyContent
	nodeBlocks map[string]*hcl.BodyContent
	target     *model.NVMeoFTarget // nil: no NVMe-oF target (nvmeof.go)
	extra      gdsCeph             // gds and ceph blocks (gds.go)
	gpfsCommon map[string]string   // gpfs block (gpfs.go)
	gpfsNodes  map[string]map[string]string
}

var rootSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "extends"}}, Blocks: []hcl.BlockHeaderSchema{
	{Type: "cluster"},
	{Type: "defaults"},
	{Type: "node", LabelNames: []string{"name"}},
	{Type: "nvmeof_target"},
	{Type: "gds"},
	{Type: "ceph"},
	{Type: "gpfs"},
}}

var clusterSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "name"}, {Name: "node_prefix"}, {Name: "servers"}, {Name: "nodes"}, {Name: "network"},
}}

// Healthy is the scenario used when none is given: every node healthy.
func Healthy() *Scenario {
	return &Scenario{Filename: "(built-in healthy)", Name: "lab.prova", Prefix: "gpfs", Servers: 2, NetPrefix: "10.10",
		nodeBlocks: map[string]*hcl.BodyContent{}, target: model.DefaultNVMeoFTarget(), extra: defaultGDSCeph()}
}

// Load reads and parses a scenario file; "" gives Healthy.
func Load(path string) (*Scenario, hcl.Diagnostics) {
	if path == "" {
		return Healthy(), nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read scenario",
			Detail: fmt.Sprintf("read scenario: %v", err)}}
	}
	return Parse(path, src)
}

// Parse parses scenario source. filename is used in diagnostics and to
// find the file an `extends` attribute names.
func Parse(filename string, src []byte) (*Scenario, hcl.Diagnostics) {
	return parse(filename, src, 0)
}

// maxExtends bounds a chain of scenarios extending each other (and so
// catches a cycle).
const maxExtends = 8

// parse reads one scenario. With `extends = "base.hcl"` (relative to this
// file) it starts from that scenario instead of the built-in healthy one:
// this file's cluster attributes override the base's, a defaults,
// nvmeof_target, gds or ceph block here is applied over the base's, and a
// node block here replaces the base's block for that node. Fault scenarios
// then hold only what differs from the cluster they break.
func parse(filename string, src []byte, depth int) (*Scenario, hcl.Diagnostics) {
	f, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	content, d := f.Body.Content(rootSchema)
	diags = append(diags, d...)
	s := Healthy()
	if a, ok := content.Attributes["extends"]; ok {
		base, d := extends(filename, a, depth)
		diags = append(diags, d...)
		if d.HasErrors() {
			return nil, diags
		}
		s = base
	}
	s.Filename = filename
	seen := map[string]*hcl.Range{}
	for _, b := range content.Blocks {
		if prev, dup := seen[b.Type+"\x00"+labelOf(b)]; dup && b.Type != "node" {
			diags = append(diags, dupDiag(b, prev))
			continue
		}
		switch b.Type {
		case "cluster":
			seen["cluster\x00"] = &b.DefRange
			diags = append(diags, s.decodeCluster(b.Body)...)
		case "defaults":
			seen["defaults\x00"] = &b.DefRange
			c, d := b.Body.Content(nodeSchema(false))
			diags = append(diags, d...)
			s.defaults = overlay(s.defaults, c)
		case "nvmeof_target":
			seen["nvmeof_target\x00"] = &b.DefRange
			diags = append(diags, s.decodeNVMeoF(b.Body)...)
		case "gds":
			seen["gds\x00"] = &b.DefRange
			diags = append(diags, s.decodeGDS(b.Body)...)
		case "ceph":
			seen["ceph\x00"] = &b.DefRange
			diags = append(diags, s.decodeCeph(b.Body)...)
		case "gpfs":
			seen["gpfs\x00"] = &b.DefRange
			diags = append(diags, s.decodeGPFS(b.Body)...)
		case "node":
			name := b.Labels[0]
			if prev, dup := seen["node\x00"+name]; dup {
				diags = append(diags, dupDiag(b, prev))
				continue
			}
			seen["node\x00"+name] = &b.DefRange
			if !validName(name) {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid node name",
					Detail: fmt.Sprintf("node name %q must be letters, digits, '-' or '_'", name), Subject: b.LabelRanges[0].Ptr()})
				continue
			}
			c, d := b.Body.Content(nodeSchema(true))
			diags = append(diags, d...)
			s.nodeBlocks[name] = c
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	// Validate every block now by resolving a node against it, so that
	// errors surface at load time with their ranges.
	if _, d := s.resolve("", 1, 1); d.HasErrors() {
		return nil, d
	}
	for name := range s.nodeBlocks {
		if _, d := s.resolve(name, 1, 1); d.HasErrors() {
			return nil, d
		}
	}
	return s, diags
}

func (s *Scenario) decodeCluster(body hcl.Body) hcl.Diagnostics {
	c, diags := body.Content(clusterSchema)
	a := attrs(c.Attributes)
	a.str("name", &s.Name, &diags)
	a.str("node_prefix", &s.Prefix, &diags)
	if !validName(s.Prefix) {
		diags = append(diags, a.diag("node_prefix", "Invalid node prefix", "node_prefix must be letters, digits, '-' or '_'"))
	}
	a.num("servers", &s.Servers, 0, 1000, &diags)
	a.num("nodes", &s.Nodes, 0, 1000, &diags)
	var network string
	if a.str("network", &network, &diags) {
		p, ok := netPrefix(network)
		if !ok {
			diags = append(diags, a.diag("network", "Invalid network", `network must be an IPv4 /16 like "10.10.0.0/16"`))
		}
		s.NetPrefix = p
	}
	return diags
}

func labelOf(b *hcl.Block) string {
	if len(b.Labels) > 0 {
		return b.Labels[0]
	}
	return ""
}

func dupDiag(b *hcl.Block, prev *hcl.Range) *hcl.Diagnostic {
	what := b.Type
	if len(b.Labels) > 0 {
		what = fmt.Sprintf("%s %q", b.Type, b.Labels[0])
	}
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate " + b.Type + " block",
		Detail: fmt.Sprintf("%s was already defined at %s.", what, prev), Subject: b.DefRange.Ptr()}
}

func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// extends loads the base scenario named by an extends attribute.
func extends(filename string, a *hcl.Attribute, depth int) (*Scenario, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return nil, diags
	}
	if v.Type() != cty.String || v.IsNull() || v.AsString() == "" {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Invalid extends",
			Detail: "extends must name a scenario file, relative to this one.", Subject: a.Expr.Range().Ptr()}}
	}
	if depth >= maxExtends {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Scenarios extend too deep",
			Detail: fmt.Sprintf("more than %d scenarios extend each other: is there a cycle?", maxExtends), Subject: a.Expr.Range().Ptr()}}
	}
	path := v.AsString()
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(filename), path)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the extended scenario",
			Detail: err.Error(), Subject: a.Expr.Range().Ptr()}}
	}
	return parse(path, src, depth+1)
}

// overlay applies the attributes and blocks of over on top of base: an
// attribute in over replaces the base's; blocks of a type over has (hca,
// gpu, faults) replace the base's blocks of that type and label.
func overlay(base, over *hcl.BodyContent) *hcl.BodyContent {
	if base == nil {
		return over
	}
	out := &hcl.BodyContent{Attributes: hcl.Attributes{}, MissingItemRange: over.MissingItemRange}
	for k, v := range base.Attributes {
		out.Attributes[k] = v
	}
	for k, v := range over.Attributes {
		out.Attributes[k] = v
	}
	replaced := map[string]bool{}
	for _, b := range over.Blocks {
		replaced[b.Type+"\x00"+labelOf(b)] = true
	}
	for _, b := range base.Blocks {
		if !replaced[b.Type+"\x00"+labelOf(b)] {
			out.Blocks = append(out.Blocks, b)
		}
	}
	out.Blocks = append(out.Blocks, over.Blocks...)
	return out
}
