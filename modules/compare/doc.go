// Package compare is the "compare" step module: it puts two benchmark
// results side by side, one over RDMA and one over TCP, and judges the three
// lines of an RDMA acceptance (DOMAIN.md §5) against a named threshold
// profile (modules/internal/profile): small-I/O latency (RDMA/TCP ratio),
// CPU (%soft drop and busy cores) and large sequential bandwidth (share of
// the line rate, a warning only).
//
// It runs no command: its inputs are earlier steps' outputs (the bench
// module's), so it is "known after apply" at plan time. Its verdicts are
// returned as outputs, as a preformatted table, and as Checks that feed the
// run record and reports. A missing measurement (a bench step that failed)
// fails its line with a message saying which one is missing.
package compare
