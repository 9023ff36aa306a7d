package bench

import (
	"encoding/json"
	"math"
	"testing"
)

func TestLatencyPresence(t *testing.T) {
	var l Latency
	if !l.Empty() || l.Has(Avg) {
		t.Fatal("zero Latency must report nothing")
	}
	l.Set(Avg, 0) // a real zero is still reported
	l.Set(P99, 41.5)
	l.Set(Max, math.NaN())
	if !l.Has(Avg) || !l.Has(P99) || !l.Has(Avg|P99) || l.Has(P50) || l.Has(Avg|P50) {
		t.Fatalf("presence wrong: %b", l.Present)
	}
	if v, ok := l.Get(Max); !ok || v != 0 {
		t.Fatalf("NaN must be stored as 0, got %v %v", v, ok)
	}
	b, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"avg":0,"max":0,"p99":41.5}`; got != want {
		t.Fatalf("json %s, want %s", got, want)
	}
	var back Latency
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back != l {
		t.Fatalf("round trip %+v != %+v", back, l)
	}
	if Field(0).String() != "" || P999.String() != "p99.9" {
		t.Fatal("field names")
	}
}

func TestThroughputUnits(t *testing.T) {
	var r Result
	r.SetMiBps(1000)
	if math.Abs(r.Gbps-8.388608) > 1e-9 {
		t.Fatalf("1000 MiB/s = %v Gbit/s", r.Gbps)
	}
	r.SetGbps(100)
	if math.Abs(r.MiBps-11920.928955078125) > 1e-6 {
		t.Fatalf("100 Gbit/s = %v MiB/s", r.MiBps)
	}
	r.SetMiBps(math.Inf(1))
	if r.MiBps != 0 || r.Gbps != 0 {
		t.Fatal("Inf must become 0")
	}
}
