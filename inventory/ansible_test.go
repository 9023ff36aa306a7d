package inventory

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

func TestINIValue(t *testing.T) {
	tests := []struct {
		raw  string
		want cty.Value
	}{
		{"10", cty.NumberIntVal(10)},
		{"-3", cty.NumberIntVal(-3)},
		{"0.5", cty.NumberFloatVal(0.5)},
		{"1e3", cty.NumberIntVal(1000)},
		{"007", cty.StringVal("007")},
		{"True", cty.True},
		{"False", cty.False},
		{"true", cty.StringVal("true")},
		{"yes", cty.StringVal("yes")},
		{"'quoted value'", cty.StringVal("quoted value")},
		{`"42"`, cty.StringVal("42")},
		{`"`, cty.StringVal(`"`)},
		{"4G", cty.StringVal("4G")},
		{"[1, 2]", cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)})},
		{`"['/dev/sda', '/dev/sdb']"`, cty.TupleVal([]cty.Value{cty.StringVal("/dev/sda"), cty.StringVal("/dev/sdb")})},
		{`{'a': 1, "b": [True, None]}`, cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.TupleVal([]cty.Value{cty.True, cty.NullVal(cty.DynamicPseudoType)})})},
		{"[unclosed", cty.StringVal("[unclosed")},
		{"[a, b]", cty.StringVal("[a, b]")},
		{"1e99999", cty.StringVal("1e99999")},
		{"", cty.StringVal("")},
	}
	for _, tt := range tests {
		got := iniValue(tt.raw)
		if !got.RawEquals(tt.want) && !(got.Type() == cty.Number && tt.want.Type() == cty.Number && got.Equals(tt.want).True()) {
			t.Errorf("iniValue(%q) = %#v, want %#v", tt.raw, got, tt.want)
		}
	}
}

// TestAnsibleFormats checks that the INI and YAML fixtures, which describe
// the same cluster, resolve to the same connections and groups.
func TestAnsibleFormats(t *testing.T) {
	for _, path := range []string{"testdata/ini/valid/hosts.ini", "testdata/yaml/valid/hosts.yml"} {
		t.Run(path, func(t *testing.T) {
			inv := mustLoad(t, path)
			dir := filepath.Dir(path)

			g2 := host(t, inv, "gpfs02")
			if g2.Connection.User != "root" || g2.Connection.Port != 22 {
				t.Errorf("gpfs02 connection = %+v, want user root from the host line and port 22 from gpfs vars", g2.Connection)
			}
			if _, ok := g2.Vars["ansible_user"]; ok {
				t.Errorf("ansible_user must become a connection setting, not a var")
			}
			if got := strVars(g2); got["role"] != "nsd" || got["tier"] != "nsd" || got["pagepool"] != "4G" || got["site"] != "lab" {
				t.Errorf("gpfs02 vars = %v", got)
			}

			x := host(t, inv, "nsd-extra")
			if x.Address != "10.0.0.99" || x.Connection.Port != 2222 || !x.Connection.Become {
				t.Errorf("nsd-extra = %q %+v, want address from ansible_host, port from name:port, become", x.Address, x.Connection)
			}
			if !x.Vars["weight"].RawEquals(cty.NumberIntVal(10)) || !x.Vars["enabled"].RawEquals(cty.True) {
				t.Errorf("nsd-extra weight=%#v enabled=%#v, want number and bool", x.Vars["weight"], x.Vars["enabled"])
			}

			c := host(t, inv, "clientb")
			if diff := cmp.Diff([]string{filepath.Join(dir, "keys/client")}, c.Connection.IdentityFiles); diff != "" {
				t.Errorf("clientb identity (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"clients", "gpfs"}, c.Groups); diff != "" {
				t.Errorf("clientb groups (-want +got):\n%s", diff)
			}

			b := host(t, inv, "bastion")
			if b.Address != "192.0.2.10" || !cmp.Equal(b.Groups, []string{"ungrouped"}) {
				t.Errorf("bastion = %q %v", b.Address, b.Groups)
			}
			if diff := cmp.Diff([]string{"gpfs", "ungrouped"}, inv.Groups["all"].Children); diff != "" {
				t.Errorf("all children (-want +got):\n%s", diff)
			}
		})
	}
}

func TestINISpecifics(t *testing.T) {
	inv := mustLoad(t, "testdata/ini/valid/hosts.ini")
	x := host(t, inv, "nsd-extra")
	if got := x.Vars["code"]; !got.RawEquals(cty.StringVal("007")) {
		t.Errorf("code = %#v, want the string 007", got)
	}
	if got := x.Vars["label"]; !got.RawEquals(cty.StringVal("quoted value")) {
		t.Errorf("label = %#v", got)
	}
	if x.Connection.BecomeUser != "gpfs" {
		t.Errorf("become_user = %q, want gpfs from [nsd_servers:vars]", x.Connection.BecomeUser)
	}
	c := host(t, inv, "clienta")
	if c.Connection.ProxyJump != "bastion" || c.Connection.ConnectTimeout != 15*time.Second {
		t.Errorf("clienta = %+v", c.Connection)
	}
	if got := strVars(c)["tier"]; got != "gpfs" {
		t.Errorf("tier = %q: quotes and inline comments of :vars lines must be removed", got)
	}
	if got := host(t, inv, "bastion").Connection.StrictHostKeyChecking; got != "no" {
		t.Errorf("bastion strict = %q, want no from ansible_host_key_checking=False", got)
	}

	u := mustLoad(t, "testdata/ini/valid/ungrouped.ini")
	if diff := cmp.Diff([]string{"n1", "n3", "n4"}, u.Groups["ungrouped"].Hosts); diff != "" {
		t.Errorf("ungrouped (-want +got):\n%s", diff)
	}
	if p := host(t, u, "n3").Connection.Port; p != 2201 {
		t.Errorf("n3 port = %d", p)
	}
}

func TestYAMLSpecifics(t *testing.T) {
	inv := mustLoad(t, "testdata/yaml/valid/hosts.yml")
	x := host(t, inv, "nsd-extra")
	want := cty.ObjectVal(map[string]cty.Value{
		"mtu":   cty.NumberIntVal(4096),
		"verbs": cty.True,
		"ports": cty.TupleVal([]cty.Value{cty.StringVal("mlx5_0/1")}),
	})
	if got := x.Vars["rdma"]; !got.RawEquals(want) {
		t.Errorf("rdma = %#v, want merge key resolved", got)
	}
	if got := x.Vars["nothing"]; !got.IsNull() {
		t.Errorf("nothing = %#v, want null", got)
	}
	if got := x.Vars["ratio"]; !got.Equals(cty.NumberFloatVal(0.5)).True() {
		t.Errorf("ratio = %#v", got)
	}
	c := host(t, inv, "clientc")
	if got := c.Vars["rdma"].GetAttr("mtu"); !got.RawEquals(cty.NumberIntVal(4096)) {
		t.Errorf("alias not followed: %#v", got)
	}
	if got := host(t, inv, "bastion").Connection.ProxyJump; got != "jump@gw" {
		t.Errorf("bastion proxy jump = %q, want it from -J in ansible_ssh_common_args", got)
	}
	if x.DeclRange.Start.Line != 24 {
		t.Errorf("nsd-extra DeclRange = %s, want line 24", x.DeclRange)
	}
}

func TestYAMLAliasBomb(t *testing.T) {
	src := `all:
  vars:
    a: &a [x, x, x, x, x, x, x, x, x, x]
    b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
    c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
    d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
    e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
    f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
    g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
`
	_, diags := Parse("bomb.yml", []byte(src))
	if !diags.HasErrors() {
		t.Fatal("want an error for a value that expands beyond the limit")
	}
}
