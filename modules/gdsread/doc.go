// Package gdsread is the "gds_read" step module: per mount, evidence that
// bytes went GPU-direct. It reads nvidia-fs's counters
// (/proc/driver/nvidia-fs/stats), runs one short gdsio read of a file on
// the mount into a GPU (gdsio -x 0 -I 0), and reads the counters again:
// when nvidia-fs counted the MiB gdsio read, the read went storage to GPU
// memory; when it counted nothing, cuFile served it in compatibility mode
// (through host memory), whatever gdscheck says of the file system.
//
// gdsio reports the transfer type it asked for (GPUD), not the one cuFile
// used, so the counters are the evidence. They count only with nvidia-fs's
// IO stats on (module parameter rw_stats_enabled=1, off by default): with
// them off, or without nvidia_fs, the mode is "unknown", never "gpu_direct".
// Reads that bypass nvidia-fs (dma-buf on GDS 1.16+, PCIe P2PDMA) are not
// seen by these counters; cuFile's own statistics (cufile_stats, gds_stats)
// are not read yet. The module only reads: gdsio -I 0 reads the file named,
// which must exist and be at least size long.
package gdsread
