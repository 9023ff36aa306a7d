package inventory

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigInventory writes an HCL inventory of n hosts in racks of 40, each with
// an address, groups and vars, plus a few groups with vars and children.
func bigInventory(n int) string {
	var sb strings.Builder
	sb.WriteString(`defaults {
  user            = "root"
  identity_file   = "id_ed25519"
  connect_timeout = "10s"
  vars            = { site = "lab" }
}

group "gpfs" {
  children = ["nsd_servers", "clients"]
  vars     = { pagepool = "4G" }
}

group "nsd_servers" {
  vars = { pagepool = "16G", verbs_ports = ["mlx5_0/1", "mlx5_1/1"] }
}
`)
	for i := 0; i < n; i++ {
		role := "clients"
		if i%10 == 0 {
			role = "nsd_servers"
		}
		fmt.Fprintf(&sb, `
host "node%04d" {
  address = "10.%d.%d.%d"
  groups  = [%q, "rack%02d"]
  vars    = { rack = %d, slot = %d, serial = "SN%06d" }
}
`, i, i/65536, (i/256)%256, i%256, role, i/40, i/40, i%40, i)
	}
	return sb.String()
}

func BenchmarkLoad2000Hosts(b *testing.B) {
	path := filepath.Join(b.TempDir(), "inventory.hcl")
	if err := os.WriteFile(path, []byte(bigInventory(2000)), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		inv, diags := Load(path)
		if diags.HasErrors() || len(inv.Hosts) != 2000 {
			b.Fatalf("load: %s", diags.Error())
		}
	}
}

// BenchmarkLoad2000HostsCached loads the same inventory through the
// parsed-inventory cache, every op a verified hit (BenchmarkLoad2000Hosts
// is the same load without it).
func BenchmarkLoad2000HostsCached(b *testing.B) {
	path := filepath.Join(b.TempDir(), "inventory.hcl")
	if err := os.WriteFile(path, []byte(bigInventory(2000)), 0o644); err != nil {
		b.Fatal(err)
	}
	opts := LoadOptions{CacheDir: b.TempDir()}
	if _, _, o := loadWith(path, opts); o != cacheStored {
		b.Fatalf("first load: outcome %d", o)
	}
	b.ReportAllocs()
	for b.Loop() {
		inv, diags, o := loadWith(path, opts)
		if diags.HasErrors() || o != cacheHit || len(inv.Hosts) != 2000 {
			b.Fatalf("load: outcome %d, %s", o, diags.Error())
		}
	}
}

func BenchmarkSelect(b *testing.B) {
	inv, diags := Parse("big.hcl", []byte(bigInventory(2000)))
	if diags.HasErrors() {
		b.Fatal(diags.Error())
	}
	for _, pattern := range []string{"nsd_servers", "gpfs:!rack0*", "~node1[0-9]{3}", "node[0100:0199]:&clients"} {
		b.Run(pattern, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := inv.Select(pattern); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
