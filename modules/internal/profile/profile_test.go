package profile

import (
	"strings"
	"testing"
)

// The default profile's numbers are part of its name's contract.
func TestDefaultIsDomainSection5(t *testing.T) {
	p, err := Lookup(Default)
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxLatencyRatio != 0.45 || p.MinSoftDropPct != 50 || !p.FewerBusyCores || p.MinBandwidthShare != 0.90 {
		t.Errorf("prova-default/1 changed: %+v; release a new version instead", p)
	}
}

func TestUnknownNamesTheKnown(t *testing.T) {
	_, err := Lookup("site/7")
	if err == nil || !strings.Contains(err.Error(), Default) {
		t.Errorf("err = %v", err)
	}
}
