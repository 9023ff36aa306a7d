// Package baseline compares a run with an earlier one, its baseline.
//
// Metrics collects every measured number of a record: the measured value
// of each check that reads as a number (with an optional unit, "3.1 us",
// "42%"), and the numeric result attributes whose name says which way is
// better (latency, CPU, bandwidth, IOPS, peers, errors). Compare sets each
// metric against the baseline per node and for the cluster (the median over
// nodes), and judges the change with a Tolerances profile: a regression
// beyond the tolerance fails. Nodes new since the baseline are judged
// against the baseline's cluster figures; nodes gone since are listed.
//
// A baseline is a run directory, a run.json, or a report exported with
// "prova report --format json" (schema prova-report/1); Load reads all
// three and Resolve turns "latest" or a run ID into a directory.
//
// The package renders only plain text and Markdown tables of a Comparison;
// the HTML, JUnit and JSON forms are in internal/report. It never changes
// a record.
package baseline
