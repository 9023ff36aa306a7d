package inventory

import (
	"path/filepath"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/inventory/internal/hclfast"
)

var connAttrNames = []string{
	"user", "port", "identity_file", "proxy_jump", "known_hosts", "ssh_config",
	"strict_host_key_checking", "connect_timeout", "become", "become_user",
}

var connAttrSet = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range connAttrNames {
		m[n] = true
	}
	return m
}()

// content is the attributes of body.Content(schema) for the bodies of
// defaults, host and group blocks. A body of known attributes only, the
// common case, is read straight from the syntax tree: Content would give
// the same attributes and no diagnostics, after copying the body to hide
// them and building a map of hcl.Attribute. Anything else (an unknown
// argument, a nested block, a body from elsewhere) goes through Content
// for its diagnostics.
func content(body hcl.Body, schema *hcl.BodySchema, known map[string]bool) (bodyAttrs, hcl.Diagnostics) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || evaluateAll || len(sb.Blocks) > 0 {
		c, diags := body.Content(schema)
		return bodyAttrs{m: c.Attributes}, diags
	}
	for name := range sb.Attributes {
		if !known[name] {
			c, diags := body.Content(schema)
			return bodyAttrs{m: c.Attributes}, diags
		}
	}
	return bodyAttrs{syn: sb.Attributes, fast: true}, nil
}

// bodyAttrs are a body's attributes as Content gives them: from its map, or
// straight from the syntax tree's (no hcl.Attribute is made: the value
// helpers read only the name and the expression, an attrRef).
type bodyAttrs struct {
	m    hcl.Attributes
	syn  hclsyntax.Attributes
	fast bool
}

// anyOf reports whether the body has an attribute named in set (fast path
// only).
func (a bodyAttrs) anyOf(set map[string]bool) bool {
	for name := range a.syn {
		if set[name] {
			return true
		}
	}
	return false
}

func (a bodyAttrs) get(name string) (attrRef, bool) {
	if !a.fast {
		at, ok := a.m[name]
		if !ok {
			return attrRef{}, false
		}
		return refOf(at), true
	}
	s, ok := a.syn[name]
	if !ok {
		return attrRef{}, false
	}
	return attrRef{Name: s.Name, Expr: s.Expr}, true // what AsHCLAttribute would give of them
}

// rootContent is file.Body.Content(rootSchema). A root body of blocks only,
// each of a known type with its one label (or none, for defaults and
// gpfs_cluster), is read straight from the syntax tree, the blocks made as
// AsHCLBlock makes them but in one allocation; anything else goes through
// Content for its diagnostics.
func rootContent(body hcl.Body) (*hcl.BodyContent, hcl.Diagnostics) {
	sb, ok := body.(*hclsyntax.Body)
	if !ok || evaluateAll || len(sb.Attributes) > 0 {
		return body.Content(rootSchema)
	}
	for _, b := range sb.Blocks {
		if n, known := rootLabels[b.Type]; !known || len(b.Labels) != n {
			return body.Content(rootSchema)
		}
	}
	blocks := make([]hcl.Block, len(sb.Blocks))
	content := &hcl.BodyContent{Blocks: make(hcl.Blocks, len(sb.Blocks)), MissingItemRange: sb.MissingItemRange()}
	for i, b := range sb.Blocks {
		blocks[i] = hcl.Block{Type: b.Type, Labels: b.Labels, Body: b.Body, DefRange: b.DefRange(), TypeRange: b.TypeRange, LabelRanges: b.LabelRanges}
		content.Blocks[i] = &blocks[i]
	}
	return content, nil
}

// rootLabels is the number of labels of each block type of rootSchema.
var rootLabels = func() map[string]int {
	m := map[string]int{}
	for _, b := range rootSchema.Blocks {
		m[b.Type] = len(b.LabelNames)
	}
	return m
}()

// namesOf is the set of attribute names of a schema.
func namesOf(s *hcl.BodySchema) map[string]bool {
	m := make(map[string]bool, len(s.Attributes))
	for _, a := range s.Attributes {
		m[a.Name] = true
	}
	return m
}

func schemaWith(extra ...string) *hcl.BodySchema {
	s := &hcl.BodySchema{}
	for _, n := range append(append([]string(nil), connAttrNames...), extra...) {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: n})
	}
	return s
}

var (
	rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
		{Type: "defaults"},
		{Type: "host", LabelNames: []string{"name"}},
		{Type: "group", LabelNames: []string{"name"}},
		{Type: "gpfs_cluster"},
	}}
	defaultsSchema = schemaWith("vars")
	hostSchema     = schemaWith("address", "groups", "vars")
	groupSchema    = schemaWith("vars", "children", "hosts")

	defaultsNames = namesOf(defaultsSchema)
	hostNames     = namesOf(hostSchema)
	groupNames    = namesOf(groupSchema)
)

// parseHCLFile parses an HCL file: through hclfast when the file is in its
// literal subset (it then makes the tree hclsyntax would, without a
// diagnostic), otherwise through hclsyntax, the reference and the only
// source of syntax diagnostics. parseWithHCLSyntax is a test switch that
// sends every file to hclsyntax, for the differential tests.
func parseHCLFile(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if !parseWithHCLSyntax {
		if f, ok := hclfast.Parse(src, filename); ok {
			return f, nil
		}
	}
	return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
}

// parseWithHCLSyntax is never set outside tests.
var parseWithHCLSyntax bool

// hclParser fills a builder from an HCL inventory.
type hclParser struct {
	b        *builder
	dir      string
	defaults *hcl.Block
	groups   map[string]*hcl.Block
	gpfs     gpfsState // gpfs_cluster blocks (gpfscluster.go)
}

func parseHCL(filename string, src []byte) (*Inventory, hcl.Diagnostics) {
	return parseHCLWith(filename, src, nil)
}

// parseHCLWith parses with GPFS input (gpfscluster.go): nil = the file alone.
func parseHCLWith(filename string, src []byte, in *gpfsInput) (*Inventory, hcl.Diagnostics) {
	file, diags := parseHCLFile(src, filename)
	if diags.HasErrors() {
		return nil, diags
	}
	content, d := rootContent(file.Body)
	diags = append(diags, d...)
	p := &hclParser{b: newBuilder(), dir: filepath.Dir(filename), groups: map[string]*hcl.Block{}, gpfs: gpfsState{in: in}}
	p.b.reserve(len(content.Blocks))
	for _, blk := range content.Blocks {
		switch blk.Type {
		case "defaults":
			p.defaultsBlock(blk)
		case "host":
			p.hostBlock(blk)
		case "group":
			p.groupBlock(blk)
		case "gpfs_cluster":
			p.gpfsClusterBlock(blk)
		}
	}
	p.finishGPFS()
	p.b.diags = append(diags, p.b.diags...)
	inv, diags := p.b.build()
	p.gpfs.attach(inv, filename, src)
	return inv, diags
}

func (p *hclParser) defaultsBlock(blk *hcl.Block) {
	if p.defaults != nil {
		p.b.errorf(blk.DefRange, "Duplicate defaults block", "Only one defaults block is allowed; the first is at %s.", describeRange(p.defaults.DefRange))
		return
	}
	p.defaults = blk
	content, diags := content(blk.Body, defaultsSchema, defaultsNames)
	p.b.diags = append(p.b.diags, diags...)
	p.b.defaults = p.conn(content)
	if a, ok := content.get("vars"); ok {
		vars, d := attrVars(a)
		p.b.diags = append(p.b.diags, d...)
		p.b.defaultVars = vars
	}
}

func (p *hclParser) hostBlock(blk *hcl.Block) {
	label, labelRange := blk.Labels[0], blk.LabelRanges[0]
	names, ok := p.names(label, labelRange, checkHostName)
	content, diags := content(blk.Body, hostSchema, hostNames)
	p.b.diags = append(p.b.diags, diags...)
	if !ok {
		return
	}
	conn := p.conn(content)
	var vars map[string]cty.Value
	if a, ok := content.get("vars"); ok {
		vars, diags = attrVars(a)
		p.b.diags = append(p.b.diags, diags...)
	}
	var groups []string
	var groupRanges []hcl.Range
	if a, ok := content.get("groups"); ok {
		var d hcl.Diagnostics
		groups, groupRanges, _, d = attrStringList(a, false)
		p.b.diags = append(p.b.diags, d...)
		for i, g := range groups {
			if err := checkGroupName(g); err != nil {
				p.b.errorf(groupRanges[i], "Invalid group name", "%s.", err)
			}
		}
	}
	addrs := make([]string, len(names))
	if a, ok := content.get("address"); ok {
		addr, ok, d := attrString(a)
		p.b.diags = append(p.b.diags, d...)
		if ok {
			addrs = p.addresses(addr, a.Expr.Range(), label, names)
		}
	}
	for i, n := range names {
		h := p.b.host(n, blk.DefRange)
		if h.declared {
			p.b.errorf(labelRange, "Duplicate host", "Host %q is already defined at %s.", n, describeRange(h.rng))
			continue
		}
		h.declared = true
		h.rng = blk.DefRange
		h.address = addrs[i]
		h.conn = conn
		if len(names) == 1 && h.vars == nil && len(vars) > 0 {
			h.vars, h.ownVars = vars, true // this block's own map, for its only host
		} else {
			setVars(&h.vars, vars) // a range: each host its own copy
		}
		for j, g := range groups {
			p.b.member(h, g, groupRanges[j])
		}
	}
}

// addresses expands the address of a host block whose label expanded to
// names: a range label takes either no address or a range address with the
// same count.
func (p *hclParser) addresses(addr string, rng hcl.Range, label string, names []string) []string {
	out := make([]string, len(names))
	if !hasRange(label) {
		out[0] = addr
		return out
	}
	expanded, err := ExpandRange(addr)
	if err != nil {
		p.b.errorf(rng, "Invalid address range", "%s.", err)
		return out
	}
	if len(expanded) != len(names) {
		p.b.errorf(rng, "Address does not match host range",
			"Host %q expands to %d hosts but address %q gives %d addresses; with a range label, omit the address or give a range of the same length, such as \"10.0.0.[11:14]\".",
			label, len(names), addr, len(expanded))
		return out
	}
	return expanded
}

func (p *hclParser) groupBlock(blk *hcl.Block) {
	name, labelRange := blk.Labels[0], blk.LabelRanges[0]
	content, diags := content(blk.Body, groupSchema, groupNames)
	p.b.diags = append(p.b.diags, diags...)
	if err := checkGroupName(name); err != nil {
		p.b.errorf(labelRange, "Invalid group name", "%s.", err)
		return
	}
	if prev, dup := p.groups[name]; dup {
		p.b.errorf(labelRange, "Duplicate group", "Group %q is already defined at %s.", name, describeRange(prev.DefRange))
		return
	}
	p.groups[name] = blk
	g := p.b.group(name, blk.DefRange)
	g.known, g.block, g.rng = true, true, blk.DefRange
	g.conn = p.conn(content)
	if a, ok := content.get("vars"); ok {
		vars, d := attrVars(a)
		p.b.diags = append(p.b.diags, d...)
		g.vars = vars
	}
	if a, ok := content.get("children"); ok {
		children, ranges, _, d := attrStringList(a, false)
		p.b.diags = append(p.b.diags, d...)
		for i, c := range children {
			if err := checkGroupName(c); err != nil {
				p.b.errorf(ranges[i], "Invalid group name", "%s.", err)
				continue
			}
			p.b.child(name, c, ranges[i])
		}
	}
	if a, ok := content.get("hosts"); ok {
		hosts, ranges, _, d := attrStringList(a, false)
		p.b.diags = append(p.b.diags, d...)
		for i, h := range hosts {
			names, ok := p.names(h, ranges[i], checkHostName)
			if !ok {
				continue
			}
			for _, n := range names {
				p.b.member(p.b.host(n, ranges[i]), name, ranges[i])
			}
		}
	}
}

// names expands a host label or list element, reporting errors at rng.
func (p *hclParser) names(s string, rng hcl.Range, check func(string) error) ([]string, bool) {
	names, err := ExpandRange(s)
	if err != nil {
		p.b.errorf(rng, "Invalid host range", "%s.", err)
		return nil, false
	}
	if !p.b.room(len(names), rng) {
		return nil, false
	}
	for _, n := range names {
		if err := check(n); err != nil {
			p.b.errorf(rng, "Invalid host name", "%s.", err)
			return nil, false
		}
	}
	return names, true
}

// conn decodes the connection attributes present in attrs.
func (p *hclParser) conn(attrs bodyAttrs) connDef {
	if attrs.fast && !attrs.anyOf(connAttrSet) {
		return connDef{} // what the lookups below give for a body without any
	}
	var c connDef
	var diags hcl.Diagnostics
	str := func(name string, field connField, dst *string, check func(string) error) {
		a, ok := attrs.get(name)
		if !ok {
			return
		}
		s, ok, d := attrString(a)
		diags = append(diags, d...)
		if !ok {
			return
		}
		if check != nil {
			if err := check(s); err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid value for " + name, Detail: err.Error() + ".", Subject: a.Expr.Range().Ptr()})
				return
			}
		}
		*dst = s
		c.set |= field
	}
	str("user", fUser, &c.c.User, nil)
	str("proxy_jump", fProxyJump, &c.c.ProxyJump, nil)
	str("known_hosts", fKnownHosts, &c.c.KnownHosts, nil)
	str("ssh_config", fSSHConfig, &c.c.SSHConfig, nil)
	str("become_user", fBecomeUser, &c.c.BecomeUser, nil)
	c.c.KnownHosts = resolvePath(p.dir, c.c.KnownHosts)
	c.c.SSHConfig = resolvePath(p.dir, c.c.SSHConfig)
	if a, ok := attrs.get("strict_host_key_checking"); ok {
		v, ok, d := evalAttr(a)
		diags = append(diags, d...)
		if ok {
			switch {
			case v.Type() == cty.Bool && v.True():
				c.c.StrictHostKeyChecking, c.set = "yes", c.set|fStrict
			case v.Type() == cty.Bool:
				c.c.StrictHostKeyChecking, c.set = "no", c.set|fStrict
			case v.Type() == cty.String && validStrict(v.AsString()):
				c.c.StrictHostKeyChecking, c.set = v.AsString(), c.set|fStrict
			default:
				diags = append(diags, typeError(a, "\"yes\", \"accept-new\" or \"no\"")...)
			}
		}
	}
	if a, ok := attrs.get("port"); ok {
		port, ok, d := attrPort(a)
		diags = append(diags, d...)
		if ok {
			c.c.Port, c.set = port, c.set|fPort
		}
	}
	if a, ok := attrs.get("identity_file"); ok {
		files, _, ok, d := attrStringList(a, true)
		diags = append(diags, d...)
		if ok {
			for i := range files {
				files[i] = resolvePath(p.dir, files[i])
			}
			c.c.IdentityFiles, c.set = files, c.set|fIdentity
		}
	}
	if a, ok := attrs.get("connect_timeout"); ok {
		d, ok, dd := attrDuration(a)
		diags = append(diags, dd...)
		if ok {
			c.c.ConnectTimeout, c.set = d, c.set|fTimeout
		}
	}
	if a, ok := attrs.get("become"); ok {
		bv, ok, d := attrBool(a)
		diags = append(diags, d...)
		if ok {
			c.c.Become, c.set = bv, c.set|fBecome
		}
	}
	p.b.diags = append(p.b.diags, diags...)
	return c
}
