// Package scenario reads a lab scenario (HCL) and resolves it into the
// hardware model of every node (package lab/model).
//
// A scenario has an optional cluster block (name, node name prefix, how many
// leading nodes are servers, the text-only data network), a defaults block
// that every node starts from, and node blocks that override one node by
// name: attributes replace, hca/gpu blocks merge by name, absent = true
// removes a device or port. Without a defaults block, or for what it leaves
// out, the built-in healthy node applies (see docs/lab.md for every field).
//
// Problems are hcl.Diagnostics with file:line:col ranges. The package does
// not start anything and does not know about SSH or the simulated tools.
package scenario
