// Package gds reads the output of NVIDIA GPUDirect Storage tools into typed
// values: gdscheck -p (and gdscheck.py -v, which prints only its version
// lines) and gdsio / gdsio_verify results.
//
// Both vocabularies of gdscheck are read: the older per-file-system
// "Supported"/"Unsupported" and the 1.16+ capability lists ("nvfs, compat",
// "dmabuf, compat", "compat"). A file system counts as supported when it is
// "Supported" or its capabilities include nvfs or dmabuf; "compat" alone
// means cuFile falls back to POSIX I/O through host memory.
//
// A leading "warn:" line, a host without a GPU ("No GPU found ...") and a
// missing binary (exit 127, "sh: ...: not found"; see NotInstalled and
// ParseRun) are results, not parse failures. The package does not run the
// tools and does not judge readiness beyond reporting what the tool said.
package gds
