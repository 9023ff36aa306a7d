package inventory

import (
	"io"
	"sort"

	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// Render writes the resolved inventory as HCL: one host block per host in
// declaration order (address, the connection settings that are set, groups
// and merged vars), then one group block per group ("all" first, then by
// name) with its member hosts, children and own vars. It is what
// "prova inventory -i FILE" prints.
func (inv *Inventory) Render(w io.Writer) error {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	for _, h := range inv.Hosts {
		hb := body.AppendNewBlock("host", []string{h.Name}).Body()
		hb.SetAttributeValue("address", cty.StringVal(h.Address))
		renderConnection(hb, h.Connection)
		hb.SetAttributeValue("groups", stringList(h.Groups))
		if len(h.Vars) > 0 {
			hb.SetAttributeValue("vars", cty.ObjectVal(h.Vars))
		}
		body.AppendNewline()
	}
	names := make([]string, 0, len(inv.Groups))
	for name := range inv.Groups {
		if name != "all" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if _, ok := inv.Groups["all"]; ok {
		names = append([]string{"all"}, names...)
	}
	for i, name := range names {
		g := inv.Groups[name]
		gb := body.AppendNewBlock("group", []string{name}).Body()
		gb.SetAttributeValue("hosts", stringList(g.Hosts))
		if len(g.Children) > 0 {
			gb.SetAttributeValue("children", stringList(g.Children))
		}
		renderConnection(gb, g.Connection)
		if len(g.Vars) > 0 {
			gb.SetAttributeValue("vars", cty.ObjectVal(g.Vars))
		}
		if i < len(names)-1 {
			body.AppendNewline()
		}
	}
	_, err := w.Write(f.Bytes())
	return err
}

// renderConnection sets the attributes for the fields of c that are set.
func renderConnection(b *hclwrite.Body, c Connection) {
	str := func(name, v string) {
		if v != "" {
			b.SetAttributeValue(name, cty.StringVal(v))
		}
	}
	str("user", c.User)
	if c.Port != 0 {
		b.SetAttributeValue("port", cty.NumberIntVal(int64(c.Port)))
	}
	if len(c.IdentityFiles) > 0 {
		b.SetAttributeValue("identity_file", stringList(c.IdentityFiles))
	}
	str("proxy_jump", c.ProxyJump)
	str("known_hosts", c.KnownHosts)
	str("ssh_config", c.SSHConfig)
	str("strict_host_key_checking", c.StrictHostKeyChecking)
	if c.ConnectTimeout != 0 {
		str("connect_timeout", c.ConnectTimeout.String())
	}
	if c.Become {
		b.SetAttributeValue("become", cty.True)
	}
	str("become_user", c.BecomeUser)
}

func stringList(s []string) cty.Value {
	if len(s) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(s))
	for i, v := range s {
		vals[i] = cty.StringVal(v)
	}
	return cty.ListVal(vals)
}
