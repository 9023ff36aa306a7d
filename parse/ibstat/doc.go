// Package ibstat reads the output of infiniband-diags' `ibstat` (CA blocks
// with their ports) and of the `ibstatus` script (one block per port, read
// from sysfs) into typed values.
//
// Both tools are quiet about a missing HCA in different ways: ibstat prints
// nothing and exits 0, ibstatus prints "Fatal error:  No devices" and exits
// 255. Both cases give a Result with NoDevice set, never an empty success and
// never a parse error. Lines that do not have the shape the tools print
// (label, colon, value) inside a block are reported as *parse.Error naming
// the tool and line; values that prova reasons about (port number, rate,
// LIDs) must be numbers.
//
// The package does not run the tools and does not judge the state it reads:
// whether a Down port is a problem is for the module that asked.
package ibstat
