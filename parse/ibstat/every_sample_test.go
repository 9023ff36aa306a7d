package ibstat

import "testing"

// TestEverySample parses every sample in the ibstat and ibstatus folders
// with the parser for its tool, so that a new sample cannot go unread.
func TestEverySample(t *testing.T) {
	want := map[string]func([]byte) error{
		"ibstat/ibstat-mlx4_0-2port-port1-down-polling-port2-active.txt":        ibstatOK,
		"ibstat/no-hca-empty-output.txt":                                        ibstatOK,
		"ibstat/no-hca-ibstat-l-empty.txt":                                      ibstatOK,
		"ibstat/ibping-10-pongs-ok.txt":                                         nil, // ibping, not read here
		"ibstat/no-hca-ibnetdiscover.txt":                                       nil, // ibnetdiscover, not read here
		"ibstatus/ibstatus-4-ports-mixed-roce-ib-one-down-disabled.txt":         ibstatusOK,
		"ibstatus/ibstatus-mlx4-port1-active-fdr10-port2-down-polling-TABS.txt": ibstatusOK,
		"ibstatus/no-hca-fatal-error.txt":                                       ibstatusOK,
	}
	for _, glob := range []string{"ibstat/*", "ibstatus/*"} {
		for _, rel := range samplesGlob(t, glob) {
			fn, known := want[rel]
			if !known {
				t.Errorf("sample %s is not covered by this package's tests", rel)
				continue
			}
			if fn == nil {
				continue
			}
			for _, s := range sections(t, rel) {
				if err := fn(s); err != nil {
					t.Errorf("%s: %v", rel, err)
				}
			}
		}
	}
}

func ibstatOK(b []byte) error   { _, err := Parse(b); return err }
func ibstatusOK(b []byte) error { _, err := ParseStatus(b); return err }
