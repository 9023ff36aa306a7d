package gpfs

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "mmlsconfig", Command: "mmlsconfig", Parse: parse.Typed(ParseMmlsconfig)},
		{Name: "mmlsconfig-y", Command: "mmlsconfig -Y", Parse: parse.Typed(ParseMmlsconfigY)},
		{Name: "mmdiag-config", Command: "mmdiag --config", Parse: parse.Typed(ParseMmdiagConfig)},
		{Name: "mmdiag-config-y", Command: "mmdiag --config -Y", Parse: parse.Typed(ParseMmdiagConfigY)},
		{Name: "mmdiag-network", Command: "mmdiag --network", Parse: parse.Typed(ParseMmdiagNetwork)},
		{Name: "mmgetstate", Command: "mmgetstate -a", Parse: parse.Typed(ParseMmgetstate)},
		{Name: "mmgetstate-y", Command: "mmgetstate -Y", Parse: parse.Typed(ParseMmgetstateY)},
		{Name: "mmlscluster", Command: "mmlscluster", Parse: parse.Typed(ParseMmlscluster)},
		{Name: "mmlsnsd", Command: "mmlsnsd", Parse: parse.Typed(ParseMmlsnsd)},
		{Name: "mmlsnodeclass", Command: "mmlsnodeclass [--all]", Parse: parse.Typed(ParseMmlsnodeclass)},
		{Name: "mmlsnodeclass-y", Command: "mmlsnodeclass -Y (unverified format)", Parse: parse.Typed(ParseMmlsnodeclassY)},
		{Name: "mmlsmount", Command: "mmlsmount all -L", Parse: parse.Typed(ParseMmlsmount)},
		{Name: "mmfsadm-verbs-status", Command: "mmfsadm test verbs status", Parse: parse.Typed(ParseVerbsStatus)},
		{Name: "mmfsadm-verbs-conn", Command: "mmfsadm test verbs conn", Parse: parse.Typed(ParseVerbsConn)},
		{Name: "mmdiag-verbs-y", Command: "mmdiag --verbs -Y (unverified format)", Parse: parse.Typed(ParseMmdiagVerbsY)},
		{Name: "mmfs-log", Command: "cat /var/adm/ras/mmfs.log.latest", Parse: parse.Typed(ParseMmfsLog)},
		{Name: "mmchconfig", Command: "mmchconfig", Parse: parse.Typed(ParseCommand("mmchconfig"))},
		{Name: "mmshutdown", Command: "mmshutdown", Parse: parse.Typed(ParseCommand("mmshutdown"))},
		{Name: "mmstartup", Command: "mmstartup", Parse: parse.Typed(ParseCommand("mmstartup"))},
		{Name: "mmaddnode", Command: "mmaddnode", Parse: parse.Typed(ParseCommand("mmaddnode"))},
	}
}
