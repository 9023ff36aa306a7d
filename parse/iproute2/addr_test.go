package iproute2

import (
	"errors"
	"testing"

	"github.com/provadev/prova/internal/testkit/parsecheck"
	"github.com/provadev/prova/internal/testkit/samples"
	"github.com/provadev/prova/parse"
)

func TestSamples(t *testing.T) {
	r, err := ParseAddr(samples.Strip(samples.Read(t, "iproute2/ip-o-4-addr-ipoib-ib0.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Addrs) != 2 || r.Addrs[1] != (Addr{Index: 148, Interface: "ib0", Family: "inet", Address: "10.0.0.207", Prefix: 24, Scope: "global"}) {
		t.Errorf("ib0: %+v", r.Addrs)
	}
	if r.Interface("10.0.0.207") != "ib0" || r.Interface("10.0.0.208") != "" || r.Interface("not an address") != "" {
		t.Error("Interface lookup")
	}
	r, err = ParseAddr(samples.Strip(samples.Read(t, "iproute2/ip-o-4-addr-show-eth0-local.txt")))
	if err != nil || r.Interface("192.0.2.2") != "eth0" || r.Addrs[0].Scope != "host" {
		t.Errorf("local: %v %+v", err, r)
	}
	v6 := "1: lo    inet6 ::1/128 scope host \\       valid_lft forever preferred_lft forever\n"
	if r, err := ParseAddr([]byte(v6)); err != nil || r.Interface("::1") != "lo" {
		t.Errorf("inet6: %v %+v", err, r)
	}
}

func TestUnexpected(t *testing.T) {
	for _, in := range []string{"Device \"ib9\" does not exist.\n", "4: ib0    inet 10.0.0.300/24 scope global ib0\n", "x: ib0    inet 10.0.0.3/24\n"} {
		_, err := ParseAddr([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "ip -o addr" || pe.Line != 1 {
			t.Errorf("%q: %v", in, err)
		}
	}
}

// Nothing printed and a second copy are errors, not an empty or doubled
// list; a second address on one interface is not.
func TestEmptyAndTwice(t *testing.T) {
	one := "2: ib0    inet 10.0.0.7/24 scope global ib0\n"
	for in, line := range map[string]int{"": 0, "\n  \n": 0, one + one: 2, one + "2: ib1    inet 10.0.0.8/24 scope global ib1\n": 2} {
		_, err := ParseAddr([]byte(in))
		var pe *parse.Error
		if !errors.As(err, &pe) || pe.Tool != "ip -o addr" || pe.Line != line {
			t.Errorf("%q: %v, want an error at line %d", in, err, line)
		}
	}
	r, err := ParseAddr([]byte(one + "2: ib0    inet 10.0.0.9/24 scope global secondary ib0\n"))
	if err != nil || len(r.Addrs) != 2 {
		t.Errorf("two addresses on ib0: %v %+v", err, r)
	}
}

func FuzzParseAddr(f *testing.F) {
	for _, rel := range samples.Glob(f, "iproute2/*") {
		f.Add(samples.Strip(samples.Read(f, rel)))
	}
	parsecheck.Fuzz(f, parse.Typed(ParseAddr))
}
