package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/provadev/prova/lab"
)

const labDefaultDir = ".prova-lab"

func (a *app) labCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "lab",
		Short: "Run a simulated RDMA storage cluster on 127.0.0.1",
		Long: `lab runs a simulated storage cluster: one SSH server per node on 127.0.0.1,
each with simulated ibstat, ibdev2netdev, ofed_info, ibv_devinfo, rdma, mpstat,
nvidia-smi and the node's own files, shaped by a scenario file. See docs/lab.md.

EXIT STATUS
  0    success
  1    error`,
	}
	c.AddCommand(a.labUpCmd(), a.labStatusCmd(), a.labExpandCmd(), a.labDownCmd(),
		a.labServeCmd(), a.labSimCmd(), a.labNSExecCmd(), a.labSFTPCmd())
	return c
}

func labBinary() (string, error) {
	p, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the prova binary: %w", err)
	}
	return p, nil
}

func (a *app) labUpCmd() *cobra.Command {
	var opts lab.Options
	var timeout time.Duration
	c := &cobra.Command{
		Use:   "up",
		Short: "Start a lab in the background and write its inventory",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bin, err := labBinary()
			if err != nil {
				return err
			}
			opts.Binary = bin
			if opts.Scenario, err = findScenario(opts.Scenario, a.env); err != nil {
				return err
			}
			st, err := lab.Up(cmd.Context(), opts, timeout)
			if err != nil {
				return err
			}
			w := a.stdout
			fmt.Fprintf(w, "lab up: %d nodes in %s (scenario: %s, pid %d)\n", len(st.Nodes), st.Dir, st.Scenario, st.PID)
			writeNodes(w, st)
			fmt.Fprintf(w, "\nUse it:\n  prova plan RUNBOOK.hcl -i %s\n  prova inventory -i %s   # the hosts as the GPFS cluster lists them\n  ssh -F %s %s ibstat\n",
				filepath.Join(st.Dir, "inventory.hcl"), filepath.Join(st.Dir, lab.GPFSInventoryName), filepath.Join(st.Dir, "ssh_config"), st.Nodes[0].Name)
			fmt.Fprintf(w, "Stop it:\n  prova lab down --dir %s\n", st.Dir)
			return nil
		},
	}
	c.Flags().IntVar(&opts.Nodes, "nodes", 0, "number of nodes (default: the scenario's, else 3)")
	c.Flags().StringVar(&opts.Scenario, "scenario", "", "scenario file, or the name of a shipped one such as gpfs-firewall (default: every node healthy)")
	c.Flags().StringVar(&opts.Dir, "dir", labDefaultDir, "lab state directory")
	c.Flags().DurationVar(&timeout, "timeout", 2*time.Minute, "how long to wait for the nodes to answer")
	return c
}

func writeNodes(w io.Writer, st *lab.Status) {
	for _, n := range st.Nodes {
		state := "up"
		switch {
		case st.PID == 0:
			state = "stopped"
		case n.SSHDown:
			state = "down (scenario)"
		case !n.Answers:
			state = "not answering"
		}
		fmt.Fprintf(w, "  %-10s 127.0.0.1:%-5d  %-16s %s\n", n.Name, n.Port, state, strings.Join(n.Groups, ","))
	}
}

func (a *app) labStatusCmd() *cobra.Command {
	var dir string
	c := &cobra.Command{
		Use:   "status",
		Short: "Show whether the lab runs and which nodes answer",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := lab.ReadStatus(dir)
			if err != nil {
				return err
			}
			if st.PID == 0 {
				fmt.Fprintf(a.stdout, "lab in %s is stopped\n", st.Dir)
			} else {
				fmt.Fprintf(a.stdout, "lab in %s is running (pid %d, scenario: %s)\n", st.Dir, st.PID, st.Scenario)
			}
			writeNodes(a.stdout, st)
			return nil
		},
	}
	c.Flags().StringVar(&dir, "dir", labDefaultDir, "lab state directory")
	return c
}

func (a *app) labExpandCmd() *cobra.Command {
	var dir string
	var n int
	c := &cobra.Command{
		Use:   "expand",
		Short: "Add nodes to the running lab and its inventory",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if n < 1 {
				return errors.New("lab expand: --nodes must be at least 1")
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), 2*time.Minute)
			defer cancel()
			if err := lab.ExpandRunning(ctx, dir, n); err != nil {
				return err
			}
			st, err := lab.ReadStatus(dir)
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "lab expanded by %d to %d nodes\n", n, len(st.Nodes))
			writeNodes(a.stdout, st)
			return nil
		},
	}
	c.Flags().IntVar(&n, "nodes", 1, "number of nodes to add")
	c.Flags().StringVar(&dir, "dir", labDefaultDir, "lab state directory")
	return c
}

func (a *app) labDownCmd() *cobra.Command {
	var dir string
	var clean bool
	c := &cobra.Command{
		Use:   "down",
		Short: "Stop the lab (its files stay unless --clean)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := lab.Down(dir, clean, 30*time.Second); err != nil {
				return err
			}
			fmt.Fprintln(a.stdout, "lab down")
			return nil
		},
	}
	c.Flags().StringVar(&dir, "dir", labDefaultDir, "lab state directory")
	c.Flags().BoolVar(&clean, "clean", false, "also remove the lab directory")
	return c
}
