package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

func (a *app) inventoryCmd() *cobra.Command {
	var spec, limit string
	var asJSON, showSSH bool
	var ssh sshFlags
	cmd := &cobra.Command{
		Use:   "inventory -i FILE|host1,host2 [--limit PATTERN]",
		Short: "Print the resolved hosts, groups and variables of an inventory",
		Long: `inventory reads an HCL inventory, an Ansible INI or YAML inventory, or a
comma-separated host list, expands host ranges, merges variables in
precedence order and prints every host with its address, user, port, groups
and variables, then every group.

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
			inv, err := a.loadInventory(spec, limit)
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
	cmd.Flags().StringVar(&ssh.config, "ssh-config", "", `with --ssh: ssh_config file ("" = ~/.ssh/config, "none" = no file)`)
	cmd.Flags().BoolVar(&ssh.lenient, "ssh-config-lenient", false, "an unknown ssh_config keyword is a warning, not an error")
	cmd.Flags().BoolVar(&ssh.acceptNew, "ssh-accept-new", false, "with --ssh: show host key checking as --ssh-accept-new makes it")
	return cmd
}
