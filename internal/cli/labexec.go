package cli

// The hidden entry points the lab re-executes prova as: the lab server
// itself (lab serve), a simulated tool (lab sim), the per-node namespace
// helper (lab nsexec) and the SFTP subsystem (lab sftp). Users never call
// them; lab.go holds the user commands.

import (
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
				Sleep: sim.SleepContext,
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
