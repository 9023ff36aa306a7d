package gpfs

import (
	"testing"

	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestParsersRegistry(t *testing.T) {
	r := parse.NewRegistry(Parsers())
	inputs := map[string][]byte{
		"mmlsconfig":           []byte(mmlsconfigFull),
		"mmlsconfig-y":         []byte(yConfig),
		"mmdiag-config":        []byte("=== mmdiag: config ===\n! verbsRdma enable\n"),
		"mmdiag-config-y":      samples.Read(t, "gpfs/mmdiag-config-Y-changed-column.txt"),
		"mmdiag-network":       segmentOf(t, "gpfs/mmdiag-network-mrot-tcp-compute-cluster.txt", "mmdiag", 0),
		"mmgetstate":           samples.Read(t, "gpfs/mmgetstate-N-single-node-cherub-fixture.txt"),
		"mmgetstate-y":         samples.Read(t, "gpfs/mmgetstate-Y-active.txt"),
		"mmlscluster":          segmentOf(t, "gpfs/mmlscluster-ccr-7-nodes.txt", "mmlscluster", 0),
		"mmfsadm-verbs-status": samples.Read(t, "gpfs/mmfsadm-test-verbs-status-started.txt"),
		"mmfsadm-verbs-conn":   docExample(t),
		"mmdiag-verbs-y":       []byte("mmdiag:verbsConn:HEADER:version:reserved:reserved:hostname:state:\nmmdiag:verbsConn:0:1:::gpfs02:RTS:\n"),
		"mmfs-log":             samples.Read(t, "gpfs/mmfs-log-verbs-rdma-closed-connection-errors.txt"),
		"mmchconfig":           segmentOf(t, "gpfs/mmchconfig-success-propagating-4.2.3.txt", "mmchconfig", 0),
		"mmshutdown":           samples.Read(t, "gpfs/mmshutdown-N-single-node-ok-cherub-fixture.txt"),
		"mmstartup":            []byte("mmstartup: Starting GPFS ...\n"),
		"mmaddnode":            segmentOf(t, "gpfs/mmaddnode-partial-failure-unreachable-4.2.3.txt", "mmaddnode", 0),
		"mmlsnsd":              samples.Read(t, "gpfs/mmlsnsd-L-2-servers-5-nsds-2node-cluster.txt"),
		"mmlsmount":            samples.Read(t, "gpfs/mmlsmount-all-L-7-nodes-2017.txt"),
		"mmlsnodeclass":        []byte("Node Class Name       Members\n--------------------- -----\nsiteA                 c1,c2\n"),
		"mmlsnodeclass-y":      []byte(yNodeclass),
	}
	if got := len(r.List()); got != len(inputs) {
		t.Errorf("%d parsers, want %d", got, len(inputs))
	}
	for name, in := range inputs {
		p, ok := r.Lookup(name)
		if !ok {
			t.Errorf("parser %q missing", name)
			continue
		}
		v, err := p.Parse(in)
		if err != nil || v == nil {
			t.Errorf("%s: %v, %v", name, v, err)
		}
		if v, err := p.Parse([]byte("\x00garbage line\n")); err == nil && v == nil {
			t.Errorf("%s: nil value without error", name)
		}
	}
}
