// Package all builds the table of every simulated tool of the lab. It is
// the one place that lists them: a new simulator adds one line here.
package all

import (
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/bench"
	"github.com/provadev/prova/lab/sim/gds"
	"github.com/provadev/prova/lab/sim/gpfs"
	"github.com/provadev/prova/lab/sim/mpstat"
	"github.com/provadev/prova/lab/sim/nvme"
	"github.com/provadev/prova/lab/sim/nvsmi"
	"github.com/provadev/prova/lab/sim/rdma"
)

// Table returns the table of all simulated tools.
func Table() (*sim.Table, error) {
	return sim.NewTable(
		rdma.Ibstat(),
		rdma.Ibstatus(),
		rdma.Ibdev2netdev(),
		rdma.OfedInfo(),
		rdma.IbvDevinfo(),
		rdma.IbvDevices(),
		rdma.RdmaTool(),
		rdma.IP(),
		mpstat.Tool(),
		nvsmi.Tool(),
		nvsmi.Lspci(),
		nvme.Tool(),
		bench.Elbencho(),
		bench.Fio(),
		bench.IbWriteLat(),
		bench.IbWriteBw(),
		gds.Tool(),
		gds.Gdsio(),
		gpfs.Mmlscluster(), gpfs.Mmchconfig(), gpfs.Mmlsconfig(), gpfs.Mmdiag(), gpfs.Mmgetstate(), gpfs.Mmstartup(), gpfs.Mmshutdown(), gpfs.Mmfsadm(), gpfs.Mmlsnsd(), gpfs.Mmlsmount(),
		gpfs.Mmlsnodeclass(), gpfs.Mmcrnodeclass(), gpfs.Mmchnodeclass(), gpfs.Mmdelnodeclass(),
	)
}
