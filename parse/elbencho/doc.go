// Package elbencho reads elbencho's result output into typed values: the
// console result table (all phases, FIRST DONE and LAST DONE columns, 1.x
// "Elapsed ms" and 3.x "Elapsed time" rows, latency rows of --lat,
// --latpercent and --lathisto, --livecsv rows interleaved on stdout), the
// --csvfile and --resfile files, --livecsv files and "elbencho --version".
//
// Each phase is normalised (Phase.IOPS, MiBps, ElapsedMs, LatUs from the
// LAST DONE column, latency in µs) and converts to a bench.Result.
//
// The console parser skips text around the table (wrapper scripts, log
// prefixes, "NOTE:" lines) but a table row it cannot read, such as a
// truncated "[ ... " list, is a *parse.Error naming the line. Not covered:
// --jsonfile (no sample exists), the full-screen live view, and rows that
// only appear with debug log levels beyond keeping them as raw text.
package elbencho
