// Package perftest reads the text output of the perftest benchmarks
// (ib_write_lat, ib_read_lat, ib_send_lat, ib_write_bw, ib_read_bw,
// ib_send_bw), client or server side: the test title, the parameter block
// ("Device : mlx5_0", "Link type : IB", ...), the local/remote QP addresses
// and the result table.
//
// Latency rows are in microseconds (t_min, t_max, t_typical, t_avg,
// t_stdev, 99% and 99.9% percentiles; t_avg and tps in duration mode).
// Bandwidth rows are given both in MiB/s and Gb/s whatever unit perftest
// printed: "MB/sec" (perftest's MB is 2^20 bytes, as its message rate
// shows), "MiB/sec" (newer perftest) or "Gb/sec" (--report_gbits, 10^9
// bit/s). In duration mode (-D) BW peak is printed as 0.00: PeakMeasured is
// false then.
//
// Output with no HCA ("Did not detect devices", "Unable to find the
// Infiniband/RoCE device") gives NoDevice. Known warnings (e.g. "Conflicting
// CPU frequency values detected", printed between table rows) are kept in
// Warnings; known failure lines ("Couldn't connect", "Completion with
// error") in Errors. Inside the result table any other line, or a row whose
// columns are not numbers matching the table header, is a *parse.Error.
// The package does not run perftest and does not judge the numbers.
package perftest
