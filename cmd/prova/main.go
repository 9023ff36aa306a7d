// Command prova applies HCL runbooks over SSH and proves, with evidence, that
// RDMA under storage took effect. See the README.
package main

import (
	"os"

	"github.com/provadev/prova/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
