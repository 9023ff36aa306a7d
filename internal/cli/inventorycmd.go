package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"
)

func (a *app) inventoryCmd() *cobra.Command {
	var spec, limit string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inventory -i FILE|host1,host2 [--limit PATTERN]",
		Short: "Print the resolved hosts, groups and variables of an inventory",
		Long: `inventory reads an HCL inventory, an Ansible INI or YAML inventory, or a
comma-separated host list, expands host ranges, merges variables in
precedence order and prints every host with its address, user, port, groups
and variables, then every group.

EXIT STATUS
  0  success
  1  the inventory has errors or the limit matches nothing`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			inv, err := a.loadInventory(spec, limit)
			if err != nil {
				return err
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
	return cmd
}
