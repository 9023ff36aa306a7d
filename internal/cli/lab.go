package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/pkg/sftp"
	"github.com/spf13/cobra"

	"github.com/provadev/prova/lab"
	"github.com/provadev/prova/lab/nsexec"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/all"
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
			fmt.Fprintf(w, "\nUse it:\n  prova plan RUNBOOK.hcl -i %s\n  ssh -F %s %s ibstat\n",
				filepath.Join(st.Dir, "inventory.hcl"), filepath.Join(st.Dir, "ssh_config"), st.Nodes[0].Name)
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

func (a *app) labServeCmd() *cobra.Command {
	var opts lab.Options
	var readyFD int
	c := &cobra.Command{
		Use:    "serve",
		Short:  "Run a lab in the foreground (started by lab up)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bin, err := labBinary()
			if err != nil {
				return err
			}
			opts.Binary = bin
			var ready io.Writer = io.Discard
			if readyFD > 0 {
				f := os.NewFile(uintptr(readyFD), "ready")
				defer f.Close()
				ready = f
			}
			return lab.Serve(cmd.Context(), opts, ready)
		},
	}
	c.Flags().IntVar(&opts.Nodes, "nodes", 0, "number of nodes")
	c.Flags().StringVar(&opts.Scenario, "scenario", "", "scenario file")
	c.Flags().StringVar(&opts.Dir, "dir", labDefaultDir, "lab state directory")
	c.Flags().IntVar(&readyFD, "ready-fd", 0, "file descriptor to report readiness on")
	return c
}

func (a *app) labSimCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "sim TOOL [ARGS...]",
		Short:              "Run a simulated tool (the nodes' scripts call this)",
		Hidden:             true,
		DisableFlagParsing: true,
		Args:               cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			table, err := all.Table()
			if err != nil {
				return err
			}
			e := &sim.Env{
				Dir: os.Getenv("PROVA_LAB_DIR"), Node: os.Getenv("PROVA_LAB_NODE"), CmdID: os.Getenv("PROVA_LAB_CMD"),
				Args: args[1:], Stdin: a.stdin, Stdout: a.stdout, Stderr: a.stderr, Getenv: os.Getenv, Now: time.Now,
				Sleep: func(ctx context.Context, d time.Duration) error {
					t := time.NewTimer(d)
					defer t.Stop()
					select {
					case <-t.C:
						return nil
					case <-ctx.Done():
						return ctx.Err()
					}
				},
			}
			if e.Dir == "" || e.Node == "" {
				return errors.New("lab sim: PROVA_LAB_DIR and PROVA_LAB_NODE must be set")
			}
			if st := table.Run(cmd.Context(), args[0], e); st != 0 {
				// The tool's own status (255, 127, ...) must reach the shell;
				// Main maps errors to 0/1/2/130 only. Output is unbuffered.
				os.Exit(st)
			}
			return nil
		},
	}
}

func (a *app) labNSExecCmd() *cobra.Command {
	return &cobra.Command{
		Use:                "nsexec --dir DIR --node NODE --mode exec|shell|sftp -- [COMMAND]",
		Short:              "Run one node command in its mount namespace (the lab server calls this)",
		Hidden:             true,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			var dir, node, mode, command string
			for i := 0; i < len(args); i++ {
				switch args[i] {
				case "--dir", "--node", "--mode":
					if i+1 >= len(args) {
						return fmt.Errorf("lab nsexec: %s needs a value", args[i])
					}
					v := args[i+1]
					switch args[i] {
					case "--dir":
						dir = v
					case "--node":
						node = v
					default:
						mode = v
					}
					i++
				case "--":
					command = strings.Join(args[i+1:], " ")
					i = len(args)
				default:
					return fmt.Errorf("lab nsexec: unexpected argument %q", args[i])
				}
			}
			if dir == "" || node == "" {
				return errors.New("lab nsexec: --dir and --node are required")
			}
			if err := nsexec.Setup(filepath.Join(dir, "nodes", node, "root"), node); err != nil {
				return err
			}
			_ = os.Chdir("/root")
			env := os.Environ()
			switch mode {
			case "sftp":
				bin, err := labBinary()
				if err != nil {
					return err
				}
				return syscall.Exec(bin, []string{"prova", "lab", "sftp-server"}, env)
			case "shell":
				return syscall.Exec("/bin/sh", []string{"-sh"}, env)
			}
			return syscall.Exec("/bin/sh", []string{"sh", "-c", command}, env)
		},
	}
}

func (a *app) labSFTPCmd() *cobra.Command {
	return &cobra.Command{
		Use:    "sftp-server",
		Short:  "Serve SFTP on stdin/stdout (inside a node's namespace)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			rw := struct {
				io.Reader
				io.WriteCloser
			}{a.stdin, nopCloser{a.stdout}}
			s, err := sftp.NewServer(rw)
			if err != nil {
				return err
			}
			if err := s.Serve(); err != nil && !errors.Is(err, io.EOF) {
				return err
			}
			return nil
		},
	}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
