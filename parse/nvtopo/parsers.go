package nvtopo

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{{
		Name:    "nvidia-smi-topo",
		Command: "nvidia-smi topo -m",
		Parse: func(b []byte) (any, error) {
			m, err := ParseTopo(b)
			if err != nil {
				return nil, err
			}
			return m, nil
		},
	}}
}
