package ibvdevinfo

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "ibv-devinfo", Command: "ibv_devinfo [-v]", Parse: func(b []byte) (any, error) { return Parse(b) }},
		{Name: "ibv-devices", Command: "ibv_devices", Parse: func(b []byte) (any, error) { return ParseDevices(b) }},
	}
}
