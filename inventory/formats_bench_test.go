package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigINI is an Ansible INI inventory of n hosts in racks of 40, with host
// and group variables and a parent group, as bigInventory is in HCL.
func bigINI(n int) string {
	var sb strings.Builder
	sb.WriteString("[all:vars]\nansible_user=root\nsite=lab\n\n[gpfs:children]\nnsd_servers\nclients\n\n[gpfs:vars]\npagepool=4G\n")
	groups := map[string][]string{}
	var order []string
	for i := range n {
		role := "clients"
		if i%10 == 0 {
			role = "nsd_servers"
		}
		line := fmt.Sprintf("node%04d ansible_host=10.%d.%d.%d rack=%d slot=%d serial=SN%06d",
			i, i/65536, (i/256)%256, i%256, i/40, i%40, i)
		for _, g := range []string{role, fmt.Sprintf("rack%02d", i/40)} {
			if _, ok := groups[g]; !ok {
				order = append(order, g)
			}
			groups[g] = append(groups[g], line)
			line = strings.Fields(line)[0]
		}
	}
	for _, g := range order {
		fmt.Fprintf(&sb, "\n[%s]\n%s\n", g, strings.Join(groups[g], "\n"))
	}
	return sb.String()
}

// bigYAML is the same inventory in Ansible's YAML format.
func bigYAML(n int) string {
	var sb strings.Builder
	sb.WriteString("all:\n  vars:\n    ansible_user: root\n    site: lab\n  children:\n    gpfs:\n      vars:\n        pagepool: 4G\n      children:\n")
	for _, role := range []string{"nsd_servers", "clients"} {
		fmt.Fprintf(&sb, "        %s:\n          hosts:\n", role)
		for i := range n {
			if (i%10 == 0) != (role == "nsd_servers") {
				continue
			}
			fmt.Fprintf(&sb, "            node%04d:\n              ansible_host: 10.%d.%d.%d\n              rack: %d\n              slot: %d\n              serial: SN%06d\n",
				i, i/65536, (i/256)%256, i%256, i/40, i%40, i)
		}
	}
	return sb.String()
}

// BenchmarkLoadFormats2000 loads the same 2,000-host inventory written in
// each supported format.
func BenchmarkLoadFormats2000(b *testing.B) {
	for _, f := range []struct{ name, text string }{
		{"inventory.hcl", bigInventory(2000)},
		{"hosts.ini", bigINI(2000)},
		{"hosts.yml", bigYAML(2000)},
	} {
		path := filepath.Join(b.TempDir(), f.name)
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				inv, diags := Load(path)
				if diags.HasErrors() || len(inv.Hosts) != 2000 {
					b.Fatalf("load %s: %d hosts, %s", f.name, len(inv.Hosts), diags.Error())
				}
			}
		})
	}
}

// BenchmarkLimit2000 applies --limit patterns to a 2,000-host inventory.
func BenchmarkLimit2000(b *testing.B) {
	inv, diags := Parse("big.hcl", []byte(bigInventory(2000)))
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	for _, pattern := range []string{"all", "rack0*:!node0001", "nsd_servers:&gpfs"} {
		b.Run(pattern, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := inv.Limit(pattern); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
