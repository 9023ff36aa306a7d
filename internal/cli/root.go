package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes (fixed; see README).
const (
	ExitOK          = 0
	ExitError       = 1
	ExitChanges     = 2
	ExitInterrupted = 130
)

// errChanges is returned by plan --detailed-exitcode when changes exist.
var errChanges = errors.New("changes present")

// errInterrupted is returned when the run was cancelled by a signal.
var errInterrupted = errors.New("interrupted")

// errSilent marks an error already reported to the user (diagnostics,
// failed steps): Main only maps it to an exit code.
type errSilent struct{ err error }

func (e errSilent) Error() string { return e.err.Error() }
func (e errSilent) Unwrap() error { return e.err }

// app carries what every subcommand shares for one invocation of Main.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	env            []string
	color          string // auto, always, never
	noInvCache     bool   // --no-inventory-cache
}

// Main runs prova with args (without the program name) and returns the exit
// status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, env: os.Environ()}
	root := a.rootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	return a.exitCode(ctx, err)
}

func (a *app) exitCode(ctx context.Context, err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errChanges):
		return ExitChanges
	case errors.Is(err, errInterrupted), ctx.Err() != nil:
		return ExitInterrupted
	}
	var s errSilent
	if !errors.As(err, &s) {
		fmt.Fprintf(a.stderr, "Error: %v\n", err)
	}
	return ExitError
}

func (a *app) rootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "prova",
		Short: "Put RDMA under storage and prove it took effect",
		Long: `prova applies declarative HCL runbooks over SSH across an inventory, and
proves with evidence that GPFS verbsRdma, NVMe-oF over RDMA and GPUDirect
Storage really took effect.

EXIT STATUS
  0    success
  1    error: bad input, a failed step, a failed assertion
  2    plan --detailed-exitcode found changes
  130  interrupted`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// --version prints what `prova version` prints.
		Version: version(),
	}
	root.SetVersionTemplate("prova {{.Version}}\n")
	root.PersistentFlags().StringVar(&a.color, "color", "auto", "colour output: auto, always or never (NO_COLOR is honoured)")
	root.PersistentFlags().BoolVar(&a.noInvCache, "no-inventory-cache", false, "parse an HCL inventory afresh, neither reading nor writing the parsed-inventory cache (also PROVA_INVENTORY_CACHE=off)")
	for _, c := range a.commands() {
		root.AddCommand(c)
	}
	return root
}
