package profile

import (
	"strings"
	"testing"
)

// A released profile's numbers are part of its name's contract.
func TestReleasedProfilesDoNotChange(t *testing.T) {
	p, err := Lookup(V1)
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxLatencyRatio != 0.45 || p.MinSoftDropPct != 50 || !p.FewerBusyCores || p.MinBandwidthShare != 0.90 ||
		p.LatencyQD1 || p.CPUAtLineRate || p.LatencyStat != "" || p.CPUMetric != "" || p.CPUBoundPct != 0 || p.SameCeilingPct != 0 {
		t.Errorf("prova-default/1 changed: %+v; release a new version instead", p)
	}
	p, err = Lookup(Default)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "prova-default/2" || p.MaxLatencyRatio != 0.45 || p.MinSoftDropPct != 50 || !p.FewerBusyCores ||
		p.MinBandwidthShare != 0.90 || !p.LatencyQD1 || p.LatencyStat != "p50" || !p.CPUAtLineRate || p.CPUMetric != "kernel" ||
		p.CPUBoundPct != 95 || p.SameCeilingPct != 5 || p.MaxSpreadPct != 10 {
		t.Errorf("prova-default/2 changed: %+v; release a new version instead", p)
	}
}

func TestUnknownNamesTheKnown(t *testing.T) {
	_, err := Lookup("site/7")
	if err == nil || !strings.Contains(err.Error(), Default) || !strings.Contains(err.Error(), V1) {
		t.Errorf("err = %v", err)
	}
}

// prova-ipoib/1 is prova-default/2 with the bandwidth line on RDMA only;
// its values never change (a new version is released instead).
func TestIPoIB(t *testing.T) {
	p, err := Lookup(IPoIB)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := Lookup(Default)
	if !p.BandwidthRDMAOnly || d.BandwidthRDMAOnly || p.MaxLatencyRatio != d.MaxLatencyRatio || p.MinSoftDropPct != d.MinSoftDropPct ||
		p.MinBandwidthShare != d.MinBandwidthShare || p.CPUMetric != d.CPUMetric || !p.LatencyQD1 || p.Description == "" {
		t.Errorf("prova-ipoib/1 = %+v", p)
	}
}
