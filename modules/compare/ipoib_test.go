package compare

import (
	"strings"
	"testing"
)

// Issue 19.7: on an InfiniBand fabric the TCP run is IPoIB, which does not
// reach the InfiniBand line rate: under prova-default/2 the bandwidth line
// warns on TCP's share, under prova-ipoib/1 it judges RDMA's only, and the
// table says which profile judged and which one fits IPoIB.
func TestIPoIBProfile(t *testing.T) {
	ipoib := strings.Replace(healthyV2, "seq_tcp  = { mib_s = 11030,", "seq_tcp  = { mib_s = 3100,", 1) + "link_layer = \"InfiniBand\"\n"
	bandwidth := func(body string) (verdict, threshold, table string) {
		resp := apply(t, body)
		for _, c := range resp.Checks {
			if strings.HasPrefix(c.Name, "bandwidth") {
				return c.Verdict, c.Threshold, resp.Outputs.GetAttr("table").AsString()
			}
		}
		t.Fatalf("no bandwidth line: %+v", resp.Checks)
		return "", "", ""
	}
	v, _, tbl := bandwidth(ipoib)
	if v != "warn" || !strings.Contains(tbl, "judged by prova-default/2, whose bandwidth line expects TCP at the line rate; prova-ipoib/1 is the profile for TCP over IPoIB") {
		t.Errorf("prova-default/2 on IPoIB: %s\n%s", v, tbl)
	}
	v, th, tbl := bandwidth(ipoib + "profile = \"prova-ipoib/1\"\n")
	if v != "pass" || !strings.Contains(th, "TCP over IPoIB not judged") || strings.Contains(tbl, "is the profile for TCP over IPoIB") {
		t.Errorf("prova-ipoib/1: %s %q\n%s", v, th, tbl)
	}
	// RDMA below the line rate still warns under prova-ipoib/1.
	slow := strings.Replace(ipoib, "seq_rdma = { mib_s = 11150,", "seq_rdma = { mib_s = 6000,", 1)
	if v, _, _ := bandwidth(slow + "profile = \"prova-ipoib/1\"\n"); v != "warn" {
		t.Errorf("slow RDMA under prova-ipoib/1: %s", v)
	}
}
