// Package bench holds two step modules. "bench" (New) runs one benchmark on
// one host and returns its results in normalised units (IOPS, MiB/s, Gb/s,
// latency in µs, runtime in s) as typed outputs, with the host's CPU
// (mpstat) captured alongside: elbencho and fio on a block device or file,
// and perftest's ib_write_lat / ib_write_bw (ib_read_*, ib_send_*) split
// into three single-host steps (role = "server", "client", "collect").
// "cpu_capture" (NewCPUCapture) only samples a host's CPU for a while.
//
// CPU capture: mpstat -P ALL 1 N (LC_ALL=C, N = runtime + margin) starts
// in its own session just before the benchmark and is stopped (its context
// cancelled, which ends the remote process) right after it; the partial
// output, without Average, is summarised by parse/mpstat. A host
// without mpstat gets cpu = null and a note in the message, not a failure.
//
// Results are read from elbencho's --resfile (a remote temporary file read
// with cat, removed afterwards; the console table when the file cannot be
// read), fio's --output-format=json and perftest's tables. Output a parser
// cannot read is an error naming the tool, the host and the line. Read
// benchmarks are read-only (plan "no change"); write modes change the
// device and plan as a change. The package does not judge results: the
// compare module and assertions do.
package bench
