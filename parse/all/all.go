// Package all builds the registry of every tool-output parser, the single
// place that lists them (`prova parse --list`).
package all

import (
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/elbencho"
	"github.com/provadev/prova/parse/fio"
	"github.com/provadev/prova/parse/gds"
	"github.com/provadev/prova/parse/gpfs"
	"github.com/provadev/prova/parse/ibdev2netdev"
	"github.com/provadev/prova/parse/ibstat"
	"github.com/provadev/prova/parse/ibvdevinfo"
	"github.com/provadev/prova/parse/iproute2"
	"github.com/provadev/prova/parse/lspci"
	"github.com/provadev/prova/parse/mpstat"
	"github.com/provadev/prova/parse/nvme"
	"github.com/provadev/prova/parse/nvtopo"
	"github.com/provadev/prova/parse/ofed"
	"github.com/provadev/prova/parse/perftest"
	"github.com/provadev/prova/parse/rdmalink"
)

// Registry returns every parser prova has.
func Registry() *parse.Registry {
	return parse.NewRegistry(
		elbencho.Parsers(),
		fio.Parsers(),
		gds.Parsers(),
		gpfs.Parsers(),
		ibdev2netdev.Parsers(),
		ibstat.Parsers(),
		ibvdevinfo.Parsers(),
		iproute2.Parsers(),
		lspci.Parsers(),
		mpstat.Parsers(),
		nvme.Parsers(),
		nvtopo.Parsers(),
		ofed.Parsers(),
		perftest.Parsers(),
		rdmalink.Parsers(),
	)
}
