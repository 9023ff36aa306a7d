// Package model is the simulated hardware of one lab node: its HCAs and
// ports, OFED, memory, CPUs, GPUs with their PCIe relation to the NICs,
// IOMMU, nvidia_fs, file systems and the faults a scenario injects.
//
// A Node is plain data, resolved from a scenario by package lab/scenario and
// stored as JSON in the node's directory, where the simulated tools read it.
// The package derives the identifiers real tools print (GUIDs, LIDs, rate
// names, PCIe relations) so every tool prints the same values. It does no
// I/O besides Load and Save and knows nothing about SSH or HCL.
package model
