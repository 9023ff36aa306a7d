// Package bench simulates the benchmarks of prova's acceptance runs on a
// lab node: elbencho 3.x (console table, --csvfile, --resfile, --version),
// fio 3.33 (normal and --output-format=json) on simulated NVMe devices, and
// perftest's ib_write_lat / ib_write_bw (server and client paired across
// nodes through the lab's cluster state).
//
// The numbers follow the transport and the hardware (docs/lab-nvmeof.md):
// 4K reads at queue depth 1 near 90 µs over TCP, near 25 µs over RDMA;
// IOPS capped by the transport, the link and the target namespace's device
// (model.NVMeoFTarget.IOPS), with Little's law (latency >= in flight /
// IOPS) at every block size; large sequential
// reads at 90-95% of the data port's line rate (capped by the target's rate
// and by a slower port); TCP keeps 8-12 cores busy with %soft near 8% on a
// 32-CPU node, RDMA 1-2 cores and %soft near 1%; a node with the
// rdma_connect = "lossless" fault sees RDMA latency high and erratic. Each
// run draws its noise from the clock and a per-node run counter, so two
// runs differ by a few percent (fio's and elbencho's latency and IOPS on
// a healthy path by at most 9 %: runNoise).
//
// While a benchmark runs for its requested time (it really waits, through
// the Env's Sleep), it sets the node's CPU load state, so a concurrent
// simulated mpstat shows the benchmark's CPU; the load is reset to idle
// when it ends. Device benchmarks on paths that are not simulated NVMe
// namespaces (see package lab/sim/nvme) fail with an error naming the path.
// The package does not simulate elbencho's distributed, S3 or directory
// modes, fio's other engines, or perftest's send/read tests.
package bench
