package gds

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "gdscheck", Command: "/usr/local/cuda/gds/tools/gdscheck -p", Parse: parse.Typed(ParseGdscheck)},
		{Name: "gdsio", Command: "/usr/local/cuda/gds/tools/gdsio", Parse: parse.Typed(ParseGdsio)},
		{Name: "cufile-json", Command: "cat /etc/cufile.json", Parse: parse.Typed(ParseCufile)},
		{Name: "nvidia-fs-stats", Command: "cat /proc/driver/nvidia-fs/stats", Parse: parse.Typed(ParseNvfsStats)},
	}
}
