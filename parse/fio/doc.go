// Package fio reads fio's results: --output-format=json and json+, the
// normal (human) text of fio 3.x, and normal,json (text and JSON on one
// stdout; the JSON is taken). Times are normalised to µs and bandwidth to
// MiB/s; each job direction converts to a bench.Result.
//
// A job that failed (jobs[].error, "err=N" in the text, or "fio: pid=..,
// err=.." lines) is an error naming the job, as is output with no job
// result at all (e.g. an unknown ioengine). Not covered: the terse and
// fio 2.x text formats, client/server ("All clients") aggregation beyond
// reading it as a job, and latency histogram bins (json+ is read like json).
package fio
