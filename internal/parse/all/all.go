// Package all builds the registry of every tool-output parser, the single
// place that lists them (`prova parse --list`).
package all

import (
	"github.com/provadev/prova/internal/parse"
	"github.com/provadev/prova/internal/parse/elbencho"
	"github.com/provadev/prova/internal/parse/fio"
	"github.com/provadev/prova/internal/parse/gds"
	"github.com/provadev/prova/internal/parse/gpfs"
	"github.com/provadev/prova/internal/parse/ibdev2netdev"
	"github.com/provadev/prova/internal/parse/ibstat"
	"github.com/provadev/prova/internal/parse/ibvdevinfo"
	"github.com/provadev/prova/internal/parse/mpstat"
	"github.com/provadev/prova/internal/parse/nvme"
	"github.com/provadev/prova/internal/parse/nvtopo"
	"github.com/provadev/prova/internal/parse/ofed"
	"github.com/provadev/prova/internal/parse/perftest"
	"github.com/provadev/prova/internal/parse/rdmalink"
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
		mpstat.Parsers(),
		nvme.Parsers(),
		nvtopo.Parsers(),
		ofed.Parsers(),
		perftest.Parsers(),
		rdmalink.Parsers(),
	)
}
