package gpfs

import "github.com/provadev/prova/parse"

// Parsers returns the `prova parse` entries of this package.
func Parsers() []parse.Parser {
	return []parse.Parser{
		{Name: "mmlsconfig", Command: "mmlsconfig", Parse: wrap(ParseMmlsconfig)},
		{Name: "mmlsconfig-y", Command: "mmlsconfig -Y", Parse: wrap(ParseMmlsconfigY)},
		{Name: "mmdiag-config", Command: "mmdiag --config", Parse: wrap(ParseMmdiagConfig)},
		{Name: "mmdiag-config-y", Command: "mmdiag --config -Y", Parse: wrap(ParseMmdiagConfigY)},
		{Name: "mmdiag-network", Command: "mmdiag --network", Parse: wrap(ParseMmdiagNetwork)},
		{Name: "mmgetstate", Command: "mmgetstate -a", Parse: wrap(ParseMmgetstate)},
		{Name: "mmgetstate-y", Command: "mmgetstate -Y", Parse: wrap(ParseMmgetstateY)},
		{Name: "mmlscluster", Command: "mmlscluster", Parse: wrap(ParseMmlscluster)},
		{Name: "mmfsadm-verbs-status", Command: "mmfsadm test verbs status", Parse: wrap(ParseVerbsStatus)},
		{Name: "mmfsadm-verbs-conn", Command: "mmfsadm test verbs conn", Parse: wrap(ParseVerbsConn)},
		{Name: "mmdiag-verbs-y", Command: "mmdiag --verbs -Y (unverified format)", Parse: wrap(ParseMmdiagVerbsY)},
		{Name: "mmfs-log", Command: "cat /var/adm/ras/mmfs.log.latest", Parse: wrap(ParseMmfsLog)},
		{Name: "mmchconfig", Command: "mmchconfig", Parse: result},
		{Name: "mmshutdown", Command: "mmshutdown", Parse: result},
		{Name: "mmstartup", Command: "mmstartup", Parse: result},
		{Name: "mmaddnode", Command: "mmaddnode", Parse: result},
	}
}

// wrap adapts a typed parse function, so that a failed parse gives a nil
// interface rather than a typed nil pointer.
func wrap[T any](f func([]byte) (*T, error)) func([]byte) (any, error) {
	return func(b []byte) (any, error) {
		v, err := f(b)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}

func result(b []byte) (any, error) { return ParseCommandResult(b), nil }
