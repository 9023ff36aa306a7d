// Package bench holds the normalised benchmark result that every
// benchmark parser (elbencho, fio, perftest, ...) can be reduced to, so that
// assertions and side-by-side reports compare one shape whatever tool ran.
//
// Units are fixed: IOPS in operations per second, throughput in MiB/s and
// Gbit/s, latency in microseconds, runtime as a time.Duration. A value the
// tool did not report is zero and marked absent (see Latency.Has); values are
// never NaN or infinite.
//
// The package does not parse anything and imports no tool package: each tool
// package converts its own typed result with a Bench method.
package bench
