// Package all builds the registry of every built-in step module: the single
// place that lists them. The CLI passes the registry to the engine; tests
// build their own.
package all

import (
	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/modules/assert"
	"github.com/provadev/prova/modules/bench"
	"github.com/provadev/prova/modules/cephmessenger"
	"github.com/provadev/prova/modules/compare"
	"github.com/provadev/prova/modules/copy"
	"github.com/provadev/prova/modules/gdscheck"
	"github.com/provadev/prova/modules/gdsgpfs"
	"github.com/provadev/prova/modules/gdsread"
	"github.com/provadev/prova/modules/gpfsconfig"
	"github.com/provadev/prova/modules/gpfslog"
	"github.com/provadev/prova/modules/gpfsrestart"
	"github.com/provadev/prova/modules/gputopology"
	"github.com/provadev/prova/modules/mmchconfig"
	"github.com/provadev/prova/modules/nvmeconnect"
	"github.com/provadev/prova/modules/nvmediscover"
	"github.com/provadev/prova/modules/ofed"
	"github.com/provadev/prova/modules/rdmalat"
	"github.com/provadev/prova/modules/rdmaports"
	"github.com/provadev/prova/modules/shell"
	"github.com/provadev/prova/modules/verbsconn"
	"github.com/provadev/prova/modules/verbsdiag"
	"github.com/provadev/prova/modules/verbsstatus"
	"github.com/provadev/prova/modules/wait"
)

// Registry returns a registry holding every built-in module.
func Registry() *module.Registry {
	r := module.NewRegistry()
	for _, m := range []module.Module{
		shell.New(),
		copy.New(),
		wait.New(),
		assert.New(),
		rdmalat.New(),
		gdscheck.New(),
		gdsgpfs.New(),
		gdsread.New(),
		gputopology.New(),
		cephmessenger.New(),
		rdmaports.New(),
		ofed.New(),
		mmchconfig.New(),
		gpfsconfig.New(),
		gpfsrestart.New(),
		verbsstatus.New(),
		verbsconn.New(),
		gpfslog.New(),
		verbsdiag.New(),
		nvmediscover.New(),
		nvmeconnect.NewConnect(),
		nvmeconnect.NewDisconnect(),
		bench.NewBlock(),
		bench.NewPerftestServer(),
		bench.NewPerftestClient(),
		bench.NewPerftestCollect(),
		bench.NewCPUCapture(),
		compare.New(),
	} {
		r.Register(m)
	}
	return r
}
