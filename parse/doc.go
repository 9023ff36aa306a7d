// Package parse holds what every tool-output parser shares: the Error type
// that names the tool and the line it could not read, and the Registry behind
// `prova parse`. Each tool's parser lives in a subpackage (parse/ibstat,
// parse/nvme, ...) with pure functions from text to typed values; parsers
// never run commands and never import the lab's simulators.
package parse
