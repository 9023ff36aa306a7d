// Package labverify is the 1,000-node benchmark of the GPFS proof: it
// starts a lab of BENCHLAB_NODES nodes (default 1,000) with the example
// firewall scenario (gpfs04's RDMA connection setup is refused), enables
// verbsRdma and restarts the cluster on the lab, then runs
// runbooks/gpfs-verbs-verify.hcl with prova as a child process and
// reports wall time, prova's CPU (user + system, with every child it
// reaped), the lab server's CPU over the run (its own and its reaped
// children's: the commands that went through /bin/sh), prova's peak RSS,
// the run record's size (and its run.json, trail and raw blobs, the blobs
// split by the command they were stored for) and the
// console's line count. BENCHLAB_PROVA names
// a prova binary (else one is built), BENCHLAB_VARS adds --var settings,
// BENCHLAB_MARKDOWN receives the table row, BENCHLAB_CONSOLE the console.
//
// It never asserts a figure: the benchmark reports, docs/performance.md
// keeps the measurements. It talks to 127.0.0.1 only (the lab) and needs
// what the lab needs (root, or unprivileged user namespaces).
package labverify
