// Package nvme reads the output of nvme-cli (1.x and 2.x) into typed values:
// discover (text and -o json), list-subsys and show-topology (text and JSON),
// list (plain, -v and JSON), connect, disconnect and version, and classifies
// the error text nvme-cli prints when a command fails (ClassifyError).
//
// The parsers are pure functions from the command's stdout to values; they
// never run nvme-cli. They skip text before the output they look for (a
// shell prompt, stderr warnings such as "Failed to open /sys/...") and stop
// at the first line that cannot belong to it, but a line that claims to be
// part of the output (a "+- nvmeN" path, a "Discovery Log Entry", a table
// row) and cannot be read is a *parse.Error naming the line. When the
// expected output is missing altogether, the error carries the reason
// ClassifyError finds in the text (e.g. the nvme driver is not loaded).
//
// Not covered: nvme-cli commands other than those above (id-ctrl,
// smart-log, ...), the 1.x verbose JSON of "nvme list -v -o json", and
// nvme-cli's "-o binary".
package nvme
