// Package mpstat reads sysstat's `mpstat` CPU utilisation output: the text
// form of `mpstat -P ALL <interval> [count]` and `mpstat <interval> [count]`
// (only the "all" row) in any locale, and `mpstat -o JSON`.
//
// Locales differ in the time column (24-hour "14:03:48", 12-hour
// "02:04:06 PM", translated "Average:" labels) and may print a decimal
// comma. The parser finds the CPU column from each table header and reads
// the numbers from there, so the number of time tokens does not matter;
// a row belongs to the Average block when its label holds no digit. Tables
// other than CPU utilisation (-I, -n) are skipped.
//
// prova stops mpstat when the benchmark ends: the output may lack the
// Average block (always absent in JSON) and the last line or JSON object
// may be cut. A cut final line or JSON tail sets Truncated and is dropped;
// any other line that cannot be read is a *parse.Error. Summary averages
// the Average rows, or the interval rows when Average is absent.
//
// mpstat's usage text (invalid option or CPU number) is a *parse.Error:
// there is nothing to measure.
package mpstat
