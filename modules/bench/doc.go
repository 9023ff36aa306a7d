// Package bench holds the benchmark step modules, one per tool family and
// role so that each takes only the arguments that matter to it:
//
//   - "bench_block" (NewBlock): elbencho or fio on a block device or file,
//     repeat times, returning the median of each statistic (IOPS, MiB/s,
//     Gb/s, latency in µs with percentiles, runtime) and the spread of IOPS;
//   - "perftest_server", "perftest_client", "perftest_collect": perftest's
//     ib_write_lat / ib_write_bw (ib_read_*, ib_send_*) as three single-host
//     steps (start the server in the background; run the client against it;
//     wait for the server, read and remove its output);
//   - "cpu_capture" (NewCPUCapture): only samples a host's CPU for a while.
//
// CPU capture: mpstat -P ALL 1 N (LC_ALL=C, N = runtime + margin) starts
// in its own session just before the benchmark and is stopped (its context
// cancelled, which ends the remote process) right after it; the partial
// output, without Average, is summarised by parse/mpstat: %soft, %sys,
// %irq and their kernel sum, %iowait, busy cores (not counting %iowait)
// and the hottest core. A host without mpstat gets cpu = null and a note
// in the message, not a failure.
//
// Results are read from elbencho's --resfile (a remote temporary file read
// with cat, removed afterwards; the console table when the file cannot be
// read), fio's --output-format=json and perftest's tables. Output a parser
// cannot read is an error naming the tool, the host and the line. Read
// benchmarks are read-only (plan "no change"); write modes change the
// device and plan as a change. The package does not judge results: the
// compare module and assertions do.
package bench
