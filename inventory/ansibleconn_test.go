package inventory

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnsibleConnectionVariables(t *testing.T) {
	src := `[web]
w1 ansible_connection=local
w2 ansible_ssh_common_args='-o ProxyCommand="ssh -W %h:%p -q admin@bastion"'
w3 ansible_ssh_extra_args="-J jumper@bastion:2222"
w4 ansible_ssh_common_args="-o 'ProxyCommand=nc %h %p' -o StrictHostKeyChecking=no"
w5 ansible_password=s3cret ansible_become_pass=sudopw ansible_become_method=sudo
`
	inv, diags := Parse("hosts.ini", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	get := func(name string) Connection {
		h, ok := inv.Host(name)
		if !ok {
			t.Fatalf("no host %s", name)
		}
		return h.Connection
	}
	if !get("w1").Local {
		t.Error("w1: ansible_connection=local not honoured")
	}
	if got := get("w2").ProxyCommand; got != "ssh -W %h:%p -q admin@bastion" {
		t.Errorf("w2 ProxyCommand = %q", got)
	}
	if got := get("w3").ProxyJump; got != "jumper@bastion:2222" {
		t.Errorf("w3 ProxyJump = %q", got)
	}
	if c := get("w4"); c.ProxyCommand != "nc %h %p" || c.StrictHostKeyChecking != "no" {
		t.Errorf("w4 = %+v", c)
	}
	h5, _ := inv.Host("w5")
	if c := h5.Connection; c.Password != "s3cret" || c.BecomePassword != "sudopw" {
		t.Errorf("w5 = %+v", c)
	}
	for k := range h5.Vars {
		if strings.Contains(k, "pass") {
			t.Errorf("password kept as variable %s", k)
		}
	}
	var out bytes.Buffer
	if err := inv.Render(&out); err != nil {
		t.Fatal(err)
	}
	j, _ := json.Marshal(inv)
	for _, text := range []string{out.String(), string(j)} {
		if strings.Contains(text, "s3cret") || strings.Contains(text, "sudopw") {
			t.Errorf("a password is printed:\n%s", text)
		}
		if !strings.Contains(text, "(sensitive)") {
			t.Errorf("no (sensitive) marker:\n%s", text)
		}
	}
}

func TestAnsibleConnectionRefused(t *testing.T) {
	for _, line := range []string{
		"h ansible_connection=winrm",
		"h ansible_connection=community.docker.docker",
		"h ansible_become_method=su",
		"h ansible_become_method=doas",
	} {
		_, diags := Parse("hosts.ini", []byte(line+"\n"))
		if !diags.HasErrors() {
			t.Errorf("%q accepted", line)
			continue
		}
		if msg := diags.Error(); !strings.Contains(msg, "not supported") || !strings.Contains(msg, "hosts.ini:1") {
			t.Errorf("%q: %s", line, msg)
		}
	}
}

func TestShlexSplit(t *testing.T) {
	for in, want := range map[string][]string{
		`-o ProxyCommand="ssh -W %h:%p bastion"`: {"-o", "ProxyCommand=ssh -W %h:%p bastion"},
		`-o 'a b' c\ d`:                          {"-o", "a b", "c d"},
		`"x\"y" ''`:                              {`x"y`, ""},
	} {
		got, err := shlexSplit(in)
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("shlexSplit(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := shlexSplit(`"open`); err == nil {
		t.Error("unterminated quote accepted")
	}
}
