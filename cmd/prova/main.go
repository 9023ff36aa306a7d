// Command prova applies HCL runbooks over SSH and proves, with evidence, that
// RDMA under storage took effect. See the README.
package main

import (
	"fmt"
	"os"

	"github.com/provadev/prova/internal/cli"
)

func main() {
	stop, err := startProfiles(os.Getenv)
	if err != nil {
		_ = stop()
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(cli.ExitError)
	}
	rc := cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	if err := stop(); err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		if rc == cli.ExitOK {
			rc = cli.ExitError
		}
	}
	os.Exit(rc)
}
