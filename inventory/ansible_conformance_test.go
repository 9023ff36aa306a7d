package inventory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// ansibleKnownDifferences are differences from ansible-inventory allowed,
// each with its reason (docs/inventory.md lists them). A key is
// "inventory|host|variable". An entry that no longer differs fails.
var ansibleKnownDifferences = map[string]string{}

// ansibleConsumed are the variables prova turns into connection settings
// (see ansibleConn): compared with the setting, not as variables.
var ansibleConsumed = map[string]bool{
	"ansible_host": true, "ansible_ssh_host": true, "ansible_port": true, "ansible_ssh_port": true,
	"ansible_user": true, "ansible_ssh_user": true, "ansible_ssh_private_key_file": true,
	"ansible_private_key_file": true, "ansible_become": true, "ansible_sudo": true,
	"ansible_become_user": true, "ansible_sudo_user": true, "ansible_timeout": true,
	"ansible_ssh_timeout": true, "ansible_host_key_checking": true, "ansible_connection": true,
	"ansible_become_method": true, "ansible_password": true, "ansible_ssh_pass": true,
	"ansible_become_pass": true, "ansible_become_password": true,
}

// TestConformanceWithAnsible loads every inventory of
// testdata/ansible-corpus through prova and through `ansible-inventory
// --list`, and compares the hosts, each group's hosts, and every host's
// merged variables (connection variables against prova's address, port
// and user). Values are compared as JSON values, so 3.0 and 3 compare
// equal (prova's numbers do not keep the difference; docs/inventory.md).
// Under CI=true a missing ansible-inventory fails.
func TestConformanceWithAnsible(t *testing.T) {
	bin, err := exec.LookPath("ansible-inventory")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("ansible-inventory is needed for the conformance test: %v", err)
		}
		t.Skipf("no ansible-inventory: %v", err)
	}
	root := filepath.Join("testdata", "ansible-corpus")
	var sources []string
	for _, pat := range []string{"ibm-spectrum-scale-install-infra/*", "constructed/*"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		sources = append(sources, m...)
	}
	agree, total := 0, 0
	seen := map[string]bool{}
	for _, src := range sources {
		rel, _ := filepath.Rel(root, src)
		want := ansibleList(t, bin, src)
		inv, diags := Load(src)
		if diags.HasErrors() {
			t.Errorf("%s: prova refuses what Ansible reads: %s", rel, diags.Error())
			continue
		}
		differ := func(host, what, msg string) {
			k := rel + "|" + host + "|" + what
			seen[k] = true
			if _, ok := ansibleKnownDifferences[k]; !ok {
				t.Errorf("%s %s %s: %s", rel, host, what, msg)
			}
		}
		total++
		wantHosts := sortedKeys(want.hostvars)
		if strings.Join(sortedStrings(inv.Names()), ",") != strings.Join(wantHosts, ",") {
			differ("", "hosts", fmt.Sprintf("ansible %v, prova %v", wantHosts, inv.Names()))
		} else {
			agree++
		}
		for g, hosts := range want.groups {
			total++
			pg, ok := inv.Groups[g]
			var got []string
			if ok {
				got = sortedStrings(pg.Hosts)
			}
			if strings.Join(got, ",") == strings.Join(hosts, ",") {
				agree++
			} else {
				differ("", "group "+g, fmt.Sprintf("ansible %v, prova %v", hosts, got))
			}
		}
		for _, name := range wantHosts {
			h, ok := inv.Host(name)
			if !ok {
				continue
			}
			for _, k := range sortedKeys(want.hostvars[name]) {
				total++
				w := string(want.hostvars[name][k])
				var got string
				switch {
				case k == "ansible_host" || k == "ansible_ssh_host":
					got = strconv.Quote(h.Address)
				case k == "ansible_port" || k == "ansible_ssh_port":
					got = strconv.Itoa(h.Connection.Port)
					w = strings.Trim(w, `"`)
				case k == "ansible_user" || k == "ansible_ssh_user":
					got = strconv.Quote(h.Connection.User)
				case ansibleConsumed[k]:
					agree++ // a connection setting, checked by the inventory tests
					continue
				default:
					v, ok := h.Vars[k]
					if !ok {
						differ(name, k, fmt.Sprintf("ansible %s, missing in prova", w))
						continue
					}
					b, err := ctyjson.SimpleJSONValue{Value: v}.MarshalJSON()
					if err != nil {
						t.Fatal(err)
					}
					got = string(b)
				}
				if canonJSON(w) == canonJSON(got) {
					agree++
				} else {
					differ(name, k, fmt.Sprintf("ansible %s, prova %s", w, got))
				}
			}
		}
	}
	t.Logf("%d inventories: %d of %d hosts lists, group memberships and host variables agree with %s", len(sources), agree, total, bin)
	for k := range ansibleKnownDifferences {
		if !seen[k] {
			t.Errorf("known difference %s no longer differs: remove it", k)
		}
	}
}

type ansibleInventory struct {
	hostvars map[string]map[string]json.RawMessage
	groups   map[string][]string // every host of the group, children included
}

func ansibleList(t *testing.T, bin, src string) ansibleInventory {
	t.Helper()
	cmd := exec.Command(bin, "-i", src, "--list")
	cmd.Env = append(os.Environ(), "ANSIBLE_INVENTORY_UNPARSED_WARNING=False", "ANSIBLE_LOCALHOST_WARNING=False")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ansible-inventory -i %s: %v: %s", src, err, stderr.String())
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Hostvars map[string]map[string]json.RawMessage `json:"hostvars"`
	}
	json.Unmarshal(raw["_meta"], &meta)
	type group struct {
		Hosts    []string `json:"hosts"`
		Children []string `json:"children"`
	}
	groups := map[string]group{}
	for name, body := range raw {
		if name == "_meta" {
			continue
		}
		var g group
		json.Unmarshal(body, &g)
		groups[name] = g
	}
	ai := ansibleInventory{hostvars: meta.Hostvars, groups: map[string][]string{}}
	if ai.hostvars == nil {
		ai.hostvars = map[string]map[string]json.RawMessage{}
	}
	var members func(string, int) []string
	members = func(name string, depth int) []string {
		g := groups[name]
		out := append([]string(nil), g.Hosts...)
		if depth < 64 {
			for _, c := range g.Children {
				out = append(out, members(c, depth+1)...)
			}
		}
		return out
	}
	for name := range groups {
		hosts := members(name, 0)
		for _, h := range hosts {
			if _, ok := ai.hostvars[h]; !ok {
				ai.hostvars[h] = map[string]json.RawMessage{}
			}
		}
		ai.groups[name] = sortedStrings(dedupe(hosts))
	}
	return ai
}

func canonJSON(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func dedupe(s []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
