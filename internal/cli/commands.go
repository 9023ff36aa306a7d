package cli

import "github.com/spf13/cobra"

// commands lists every subcommand; each lives in its own file.
func (a *app) commands() []*cobra.Command {
	return []*cobra.Command{
		a.validateCmd(),
		a.planCmd(),
		a.applyCmd(),
		a.fmtCmd(),
		a.inventoryCmd(),
		a.parseCmd(),
		a.collectCmd(),
		a.modulesCmd(),
		a.lockCmd(),
		a.labCmd(),
		a.reportCmd(),
		a.versionCmd(),
	}
}
