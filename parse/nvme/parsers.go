package nvme

import "github.com/provadev/prova/parse"

// Parsers returns the nvme-cli parsers for `prova parse`.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "nvme-discover", Command: "nvme discover", Parse: parse.Typed(ParseDiscover)},
		{Name: "nvme-list-subsys", Command: "nvme list-subsys", Parse: parse.Typed(ParseListSubsys)},
		{Name: "nvme-show-topology", Command: "nvme show-topology", Parse: parse.Typed(ParseShowTopology)},
		{Name: "nvme-list", Command: "nvme list", Parse: parse.Typed(ParseList)},
		{Name: "nvme-connect", Command: "nvme connect", Parse: parse.Typed(ParseConnect)},
		{Name: "nvme-disconnect", Command: "nvme disconnect -n", Parse: parse.Typed(ParseDisconnect)},
		{Name: "nvme-version", Command: "nvme version", Parse: parse.Typed(ParseVersion)},
	}
}
