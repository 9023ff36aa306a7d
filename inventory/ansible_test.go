package inventory

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"
)

// TestAnsibleValue checks INI values against what Ansible 2.14's ini
// plugin makes of them (ast.literal_eval, or the text itself), written as
// ansible-inventory prints them.
func TestAnsibleValue(t *testing.T) {
	for raw, want := range map[string]string{
		"10":                           `10`,
		"-3":                           `-3`,
		"+5":                           `5`,
		"0.5":                          `0.5`,
		"3.0":                          `3.0`,
		"-0.0":                         `-0.0`,
		"12.0":                         `12.0`,
		"1e3":                          `1000.0`,
		"1E5":                          `100000.0`,
		"1.5e-3":                       `0.0015`,
		"1e-05":                        `1e-05`,
		"1e16":                         `1e+16`,
		"5.":                           `5.0`,
		".5":                           `0.5`,
		"1_000":                        `1000`,
		"1_000.5":                      `1000.5`,
		"0x10":                         `16`,
		"-0x1F":                        `-31`,
		"0o17":                         `15`,
		"0b101":                        `5`,
		"00":                           `0`,
		"007":                          `"007"`,
		"12345678901234567890":         `12345678901234567890`,
		"True":                         `true`,
		"False":                        `false`,
		"None":                         `null`,
		"true":                         `"true"`,
		"yes":                          `"yes"`,
		"inf":                          `"inf"`,
		"'quoted value'":               `"quoted value"`,
		`"42"`:                         `"42"`,
		`"`:                            `"\""`,
		`u'x'`:                         `"x"`,
		`b'x'`:                         `"x"`,
		`r'a\n'`:                       `"a\\n"`,
		`'a\nb'`:                       `"a\nb"`,
		`'\x41\u00e9'`:                 `"Aé"`,
		`'a' "b"`:                      `"ab"`,
		`'''tri'ple'''`:                `"tri'ple"`,
		`'a' b'c'`:                     `"'a' b'c'"`,
		"4G":                           `"4G"`,
		"5 # note":                     `5`,
		"# zone":                       `"# zone"`,
		"#":                            `"#"`,
		"[1, 2]":                       `[1,2]`,
		"[1, -2.0, 'x',]":              `[1,-2.0,"x"]`,
		"(1,)":                         `[1]`,
		"()":                           `[]`,
		"(5)":                          `5`,
		"1, 2":                         `[1,2]`,
		"80,443":                       `[80,443]`,
		"a,b":                          `"a,b"`,
		`['/dev/sda', '/dev/sdb']`:     `["/dev/sda","/dev/sdb"]`,
		`{'a': 1, "b": [True, None]}`:  `{"a":1,"b":[true,null]}`,
		`{1: 'x', True: 2, None: 3}`:   `{"1":2,"null":3}`,
		`{False: 1, 2.5: 2, '2.5': 3}`: `{"2.5":3,"false":1}`,
		`{}`:                           `{}`,
		`{1, 2}`:                       `"{1, 2}"`,
		"1+2j":                         `"1+2j"`,
		"--5":                          `"--5"`,
		"-True":                        `"-True"`,
		"[unclosed":                    `"[unclosed"`,
		"[a, b]":                       `"[a, b]"`,
		"1e99999":                      `"1e99999"`,
		"5abc":                         `"5abc"`,
		"f'x'":                         `"f'x'"`,
		"value with = sign":            `"value with = sign"`,
		"":                             `""`,
	} {
		b, err := json.Marshal(plainValue(ansibleValue(raw)))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("ansibleValue(%q) = %s, want %s", raw, b, want)
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

func TestAnsibleGroupPriorityInvalid(t *testing.T) {
	_, diags := Parse("p.ini", []byte("[a]\nh\n[a:vars]\nansible_group_priority=high\n"))
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "ansible_group_priority must be a whole number") {
		t.Fatalf("want an error naming ansible_group_priority, got %v", diags)
	}
	inv, diags := Parse("p.ini", []byte("[a]\nh\n[b]\nh\n[a:vars]\nx=a\nansible_group_priority=2\n[b:vars]\nx=b\n"))
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	h := host(t, inv, "h")
	if got := h.Vars["x"]; got.AsString() != "a" {
		t.Errorf("x = %#v, want a: priority 2 merges after b's default 1", got)
	}
	if _, ok := h.Vars["ansible_group_priority"]; ok {
		t.Error("ansible_group_priority kept as a variable")
	}
}
