// Package gds simulates NVIDIA GPUDirect Storage's readiness check,
// gdscheck, installed on a node whose model has GDS (model.Node.GDS) at
// /usr/local/cuda/gds/tools/gdscheck and on the PATH. "gdscheck -p" prints
// the release and nvidia_fs versions, the DRIVER CONFIGURATION (file
// systems and the RDMA lines), the CUFILE CONFIGURATION, the GPU INFO and
// the PLATFORM INFO, driven by the node's model; "gdscheck -v" prints the
// version lines only.
//
// Releases before 1.16 print "Supported"/"Unsupported" per file system;
// 1.16 and later print capability lists ("nvfs, compat", "dmabuf, compat",
// "compat"). The model decides: no GPU gives the "No GPU found in the
// system" line and compat-only file systems; nvidia_fs not loaded drops the
// nvidia_fs version from the version line and takes GPUDirect away from
// every file system; IOMMU on prints "IOMMU: Pass-through or enabled" with
// gdscheck's warning (platform verification still succeeds, as on real
// hosts); a mounted GPFS, WekaFS, VAST (NFS), Lustre or BeeGFS file system
// is supported, CephFS is not listed at all. A node without GDS has no
// gdscheck, so the shell reports it not found (status 127).
//
// The simulator prints what the real tool prints; it never imports prova's
// parsers (parse_cross_test.go checks that they read it).
package gds
