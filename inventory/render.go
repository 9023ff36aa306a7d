package inventory

import (
	"bufio"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// Render writes the resolved inventory as HCL: one host block per host in
// declaration order (address, the connection settings that are set, groups
// and merged vars), then one group block per group ("all" first, then by
// name) with its member hosts, children, own connection settings and own
// vars. It is what "prova inventory -i FILE" prints.
func (inv *Inventory) Render(w io.Writer) error {
	bw := bufio.NewWriter(w)
	for _, h := range inv.Hosts {
		attrs := []attr{{"address", cty.StringVal(h.Address)}}
		attrs = append(attrs, connAttrs(h.Connection)...)
		attrs = append(attrs, attr{"groups", stringList(h.Groups)})
		if len(h.Vars) > 0 {
			attrs = append(attrs, attr{"vars", cty.ObjectVal(h.Vars)})
		}
		writeBlock(bw, "host", h.Name, attrs)
		bw.WriteByte('\n')
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
		attrs := []attr{{"hosts", stringList(g.Hosts)}}
		if len(g.Children) > 0 {
			attrs = append(attrs, attr{"children", stringList(g.Children)})
		}
		attrs = append(attrs, connAttrs(g.Connection)...)
		if len(g.Vars) > 0 {
			attrs = append(attrs, attr{"vars", cty.ObjectVal(g.Vars)})
		}
		if i > 0 {
			bw.WriteByte('\n')
		}
		writeBlock(bw, "group", name, attrs)
	}
	return bw.Flush()
}

type attr struct {
	key string
	val cty.Value
}

// connAttrs lists the fields of c that are set.
func connAttrs(c Connection) []attr {
	var out []attr
	str := func(name, v string) {
		if v != "" {
			out = append(out, attr{name, cty.StringVal(v)})
		}
	}
	str("user", c.User)
	if c.Port != 0 {
		out = append(out, attr{"port", cty.NumberIntVal(int64(c.Port))})
	}
	if len(c.IdentityFiles) > 0 {
		out = append(out, attr{"identity_file", stringList(c.IdentityFiles)})
	}
	str("proxy_jump", c.ProxyJump)
	str("known_hosts", c.KnownHosts)
	str("ssh_config", c.SSHConfig)
	str("strict_host_key_checking", c.StrictHostKeyChecking)
	if c.ConnectTimeout != 0 {
		str("connect_timeout", c.ConnectTimeout.String())
	}
	if c.Become {
		out = append(out, attr{"become", cty.True})
	}
	str("become_user", c.BecomeUser)
	str("proxy_command", c.ProxyCommand)
	if c.Local {
		str("connection", "local")
	}
	if c.Password != "" {
		str("password", "(sensitive)")
	}
	if c.BecomePassword != "" {
		str("become_password", "(sensitive)")
	}
	return out
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

func writeBlock(w *bufio.Writer, typ, label string, attrs []attr) {
	w.WriteString(typ)
	w.WriteByte(' ')
	writeString(w, label)
	w.WriteString(" {\n")
	writeAttrs(w, attrs, 1)
	w.WriteString("}\n")
}

// writeAttrs writes "key = value" lines, aligning the "=" of consecutive
// single-line attributes as hclwrite does.
func writeAttrs(w *bufio.Writer, attrs []attr, indent int) {
	for i := 0; i < len(attrs); {
		if multiLine(attrs[i].val) {
			writeIndent(w, indent)
			w.WriteString(keyText(attrs[i].key))
			w.WriteString(" = ")
			writeValue(w, attrs[i].val, indent)
			w.WriteByte('\n')
			i++
			continue
		}
		j, width := i, 0
		for ; j < len(attrs) && !multiLine(attrs[j].val); j++ {
			width = max(width, utf8.RuneCountInString(keyText(attrs[j].key)))
		}
		for _, a := range attrs[i:j] {
			k := keyText(a.key)
			writeIndent(w, indent)
			w.WriteString(k)
			w.WriteString(strings.Repeat(" ", width-utf8.RuneCountInString(k)))
			w.WriteString(" = ")
			writeValue(w, a.val, indent)
			w.WriteByte('\n')
		}
		i = j
	}
}

// multiLine reports whether a value is written over several lines: a
// non-empty object or map, or a collection holding one.
func multiLine(v cty.Value) bool {
	if v.IsNull() || !v.IsKnown() {
		return false
	}
	t := v.Type()
	switch {
	case t.IsObjectType() || t.IsMapType():
		return v.LengthInt() > 0
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		for it := v.ElementIterator(); it.Next(); {
			if _, ev := it.Element(); multiLine(ev) {
				return true
			}
		}
	}
	return false
}

func writeValue(w *bufio.Writer, v cty.Value, indent int) {
	if v.IsNull() || !v.IsKnown() {
		w.WriteString("null")
		return
	}
	t := v.Type()
	switch {
	case t == cty.String:
		writeString(w, v.AsString())
	case t == cty.Bool:
		w.WriteString(strconv.FormatBool(v.True()))
	case t == cty.Number:
		w.WriteString(hclNumberText(v.AsBigFloat()))
	case t.IsObjectType() || t.IsMapType():
		if v.LengthInt() == 0 {
			w.WriteString("{}")
			return
		}
		var attrs []attr
		for it := v.ElementIterator(); it.Next(); {
			k, ev := it.Element()
			attrs = append(attrs, attr{k.AsString(), ev})
		}
		w.WriteString("{\n")
		writeAttrs(w, attrs, indent+1)
		writeIndent(w, indent)
		w.WriteByte('}')
	case t.IsListType() || t.IsTupleType() || t.IsSetType():
		if multiLine(v) {
			w.WriteString("[\n")
			for it := v.ElementIterator(); it.Next(); {
				_, ev := it.Element()
				writeIndent(w, indent+1)
				writeValue(w, ev, indent+1)
				w.WriteString(",\n")
			}
			writeIndent(w, indent)
			w.WriteByte(']')
			return
		}
		w.WriteByte('[')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			_, ev := it.Element()
			if !first {
				w.WriteString(", ")
			}
			first = false
			writeValue(w, ev, indent)
		}
		w.WriteByte(']')
	default:
		w.WriteString("null")
	}
}

func keyText(k string) string {
	if hclsyntax.ValidIdentifier(k) {
		return k
	}
	var sb strings.Builder
	bw := bufio.NewWriter(&sb)
	writeString(bw, k)
	bw.Flush()
	return sb.String()
}

// writeString writes s as an HCL quoted string.
func writeString(w *bufio.Writer, s string) {
	w.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			w.WriteByte('\\')
			w.WriteRune(r)
		case r == '\n':
			w.WriteString(`\n`)
		case r == '\r':
			w.WriteString(`\r`)
		case r == '\t':
			w.WriteString(`\t`)
		case (r == '$' || r == '%') && i+1 < len(s) && s[i+1] == '{':
			w.WriteRune(r)
			w.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			w.WriteString(`\u`)
			w.WriteString(strings.Repeat("0", 4-len(strconv.FormatInt(int64(r), 16))))
			w.WriteString(strconv.FormatInt(int64(r), 16))
		default:
			w.WriteRune(r)
		}
	}
	w.WriteByte('"')
}

func writeIndent(w *bufio.Writer, n int) {
	for i := 0; i < n; i++ {
		w.WriteString("  ")
	}
}
