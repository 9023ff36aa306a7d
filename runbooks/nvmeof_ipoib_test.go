package runbooks_test

import (
	"strings"
	"testing"

	"github.com/provadev/prova/engine/apply"
	"github.com/provadev/prova/lab/labtest"
	"github.com/provadev/prova/runbooks/runbooktest"
)

// Issue 19.7: on an InfiniBand fabric the TCP run is IPoIB; without a
// profile named, the runbook judges by prova-ipoib/1 and the table says
// both.
func TestNVMeoFLabIPoIBProfile(t *testing.T) {
	l := labtest.Start(t, 0, nvmeofScenario(t, "nvmeof-infiniband.hcl"))
	r := runbooktest.Run(t, l, nvmeofRunbook, nvmeofOptions(apply.ModeApply, "initiator=host01"))
	tbl := str(r.Output("rdma_vs_tcp", "host01", "table"))
	if !strings.Contains(tbl, "(profile prova-ipoib/1)") || !strings.Contains(tbl, "TCP over IPoIB") ||
		r.Output("rdma_vs_tcp", "host01", "tcp_is_ipoib") != true {
		t.Errorf("IPoIB run not judged by prova-ipoib/1:\n%s", tbl)
	}
}
