// Package lspci reads `lspci -vvv` (with or without -D): each device's
// address and class, a bridge's secondary and subordinate bus numbers, and
// its Access Control Services control bits (ACSCtl). prova uses it to find
// PCIe switch ports on the path between a GPU and its NIC whose ACS
// redirects peer-to-peer traffic up to the root complex (NVIDIA's GDS
// guides: ACS must be off on the switches GDS uses). It keeps nothing else
// of the verbose output, and does not read lspci -t, -n or -m.
package lspci
