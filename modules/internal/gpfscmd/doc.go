// Package gpfscmd holds what the GPFS and RDMA step modules share: building
// mm* command lines that find the GPFS binaries (PATH extended with
// /usr/lpp/mmfs/bin), running read-only probes and turning their failures
// and parse errors into errors that name the tool and the host, GPFS size
// values (16G, 512M, bytes), verbsPorts entries, the local node's identity
// in mmlscluster, and comparing configured with effective values.
//
// It does not decide anything a module decides (what to change, what a
// missing peer means) and it never runs a command that changes a host.
// Parsing itself is internal/parse's; this package only calls it.
package gpfscmd
