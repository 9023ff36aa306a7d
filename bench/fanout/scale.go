package benchfanout

import (
	"fmt"
	"strings"
)

// ScaleGroups is the number of groups of a ScaleInventory.
const ScaleGroups = 20

// ScaleRunbook returns a runbook of steps steps that exercises what the
// engine evaluates per host: variables and locals, hosts patterns, when
// conditions on host variables, shell guards that plan probes, references
// to earlier steps' results (known only after apply) and run_once
// assertions over per_host. Step i cycles through five kinds.
func ScaleRunbook(steps int) string {
	var b strings.Builder
	b.WriteString(`runbook {
  description = "scale benchmark"
}

variable "ports" {
  type    = list(string)
  default = ["mlx5_0/1", "mlx5_1/1"]
}

variable "pagepool" {
  type    = string
  default = "4G"
}

locals {
  verbs_ports = join(" ", var.ports)
  marker      = "/tmp/prova-scale-${var.pagepool}"
}
`)
	for i := 1; i <= steps; i++ {
		name := fmt.Sprintf("s%03d", i)
		prev := fmt.Sprintf("s%03d", i-1)
		fmt.Fprintf(&b, "\n")
		switch {
		case i%5 == 1:
			fmt.Fprintf(&b, "step \"shell\" %q {\n  hosts   = \"g%02d:g%02d\"\n  command = \"echo ${local.verbs_ports}\"\n  check   = \"test -e ${local.marker}-%d\"\n}\n",
				name, i%ScaleGroups, (i+1)%ScaleGroups, i)
		case i%5 == 2:
			fmt.Fprintf(&b, "step \"shell\" %q {\n  when    = host.vars.rack != \"r00\" && contains(host.groups, \"g%02d\") == false\n  command = \"echo ${host.name} ${host.vars.idx}\"\n}\n",
				name, i%ScaleGroups)
		case i%5 == 3:
			fmt.Fprintf(&b, "step \"shell\" %q {\n  command = \"echo ${step.%s.stdout}\"\n  env     = { PAGEPOOL = var.pagepool }\n}\n", name, prev)
		case i%5 == 4:
			fmt.Fprintf(&b, "step \"assert\" %q {\n  run_once      = true\n  condition     = alltrue([for h, r in per_host.%s : r.rc == 0])\n  error_message = \"a host failed %s\"\n}\n",
				name, prev, prev)
		default:
			fmt.Fprintf(&b, "step \"shell\" %q {\n  hosts   = \"all:!n0001\"\n  command = \"true\"\n  creates = \"${local.marker}-%d\"\n}\n", name, i)
		}
	}
	return b.String()
}

// ScaleInventory returns an HCL inventory of hosts hosts named n0001...,
// spread over ScaleGroups groups with variables, each host with an address
// of its own in 127.1.0.0/16 (never contacted: the benchmarks use fake
// hosts) and two variables.
func ScaleInventory(hosts int) string {
	var b strings.Builder
	b.WriteString(`defaults {
  user                     = "root"
  port                     = 22
  strict_host_key_checking = "yes"
  vars = {
    site = "bench"
  }
}
`)
	for g := range ScaleGroups {
		fmt.Fprintf(&b, "\ngroup \"g%02d\" {\n  vars = { pagepool = \"%dG\", tier = \"t%d\" }\n}\n", g, 1+g%8, g%3)
	}
	for i := 1; i <= hosts; i++ {
		fmt.Fprintf(&b, "\nhost \"n%04d\" {\n  address = \"127.1.%d.%d\"\n  groups  = [\"g%02d\"]\n  vars    = { rack = \"r%02d\", idx = %d }\n}\n",
			i, i/250, i%250+1, i%ScaleGroups, i/40, i)
	}
	return b.String()
}
