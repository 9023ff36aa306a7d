package nvme

import "github.com/provadev/prova/parse"

// Parsers returns the nvme-cli parsers for `prova parse`.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "nvme-discover", Command: "nvme discover", Parse: wrap(ParseDiscover)},
		{Name: "nvme-list-subsys", Command: "nvme list-subsys", Parse: wrap(ParseListSubsys)},
		{Name: "nvme-show-topology", Command: "nvme show-topology", Parse: wrap(ParseShowTopology)},
		{Name: "nvme-list", Command: "nvme list", Parse: wrap(ParseList)},
		{Name: "nvme-connect", Command: "nvme connect", Parse: wrap(ParseConnect)},
		{Name: "nvme-disconnect", Command: "nvme disconnect -n", Parse: wrap(ParseDisconnect)},
		{Name: "nvme-version", Command: "nvme version", Parse: wrap(ParseVersion)},
	}
}

// wrap adapts a typed parser, returning an untyped nil value on error.
func wrap[T any](f func([]byte) (*T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) {
		v, err := f(b)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}
