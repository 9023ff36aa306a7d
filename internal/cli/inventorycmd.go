package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

func (a *app) inventoryCmd() *cobra.Command {
	var spec, limit string
	var asJSON, showSSH bool
	var ssh sshFlags
	var gpfs gpfsOpts
	cmd := &cobra.Command{
		Use:   "inventory -i FILE|host1,host2 | --from-gpfs ADMIN [--limit PATTERN]",
		Short: "Print the resolved hosts, groups and variables of an inventory",
		Long: `inventory reads an HCL inventory, an Ansible INI or YAML inventory, or a
comma-separated host list, expands host ranges, merges variables in
precedence order and prints every host with its address, user, port, groups
and variables, then every group.

Hosts can come from a GPFS cluster itself: a gpfs_cluster { admin = "gpfs01" }
block in an HCL inventory, or --from-gpfs ADMIN (with or without -i). prova
runs mmlscluster, mmlsnodeclass --all and mmlsnsd on the admin node (read
only) and adds every node, named by its admin node name, to the groups of its
node classes and designations (quorum, manager, nsd_servers, clients) and to
group gpfs. The answer is cached in the record directory; the first lines
printed say where the nodes came from and how old they are. An admin node
that cannot be asked is an error; --gpfs-cached uses the cached copy then.

With --ssh it prints instead, per host, what prova will connect with, the
way ssh -G does: host name, user, port, identity files, the proxy jump chain
(each hop resolved) or proxy command, known_hosts files, host key checking,
timeouts, and the source of each: inventory, an ssh_config file:line, or
default.

EXIT STATUS
  0  success
  1  the inventory has errors or the limit matches nothing`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			gpfs.ctx, gpfs.ssh, gpfs.notes = cmd.Context(), ssh, a.stdout
			if asJSON || showSSH {
				gpfs.notes = a.stderr
			}
			inv, err := a.loadInventory(spec, limit, &gpfs)
			if err != nil {
				return err
			}
			if showSSH {
				return a.printSSH(a.stdout, inv, ssh)
			}
			if asJSON {
				enc := json.NewEncoder(a.stdout)
				enc.SetIndent("", "  ")
				return enc.Encode(inv)
			}
			return inv.Render(a.stdout)
		},
	}
	cmd.Flags().StringVarP(&spec, "inventory", "i", "", "inventory file or comma-separated host list")
	cmd.Flags().StringVarP(&limit, "limit", "l", "", "show only hosts matching this pattern")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&showSSH, "ssh", false, "print, per host, the settings prova connects with and the ssh_config file:line each comes from (like ssh -G)")
	cmd.Flags().StringVar(&ssh.config, "ssh-config", "", `ssh_config file for --ssh and for asking a GPFS admin node ("" = ~/.ssh/config, "none" = no file)`)
	gpfs.add(cmd)
	cmd.Flags().StringVar(&gpfs.recordDir, "record-dir", ".prova/runs", "where the GPFS inventory cache is kept (gpfs-inventory/ADMIN.json)")
	cmd.Flags().BoolVar(&ssh.lenient, "ssh-config-lenient", false, "an unknown ssh_config keyword is a warning, not an error")
	cmd.Flags().BoolVar(&ssh.acceptNew, "ssh-accept-new", false, "with --ssh: show host key checking as --ssh-accept-new makes it")
	return cmd
}
