package lab

import (
	"reflect"
	"testing"
)

func TestParsePlain(t *testing.T) {
	env := map[string]string{"PATH": "/n/bin:/usr/bin"}
	get := func(k string) string { return env[k] }
	for _, tc := range []struct {
		cmd  string
		ok   bool
		want plainCall
	}{
		{"ibstat", true, plainCall{name: "ibstat"}},
		{"  ofed_info -s  ", true, plainCall{name: "ofed_info", args: []string{"-s"}}},
		{"# prova-run:abc\nexport PROVA_RUN=abc\nPATH=$PATH:/usr/lpp/mmfs/bin mmfsadm test verbs conn", true,
			plainCall{env: []string{"PROVA_RUN=abc", "PATH=/n/bin:/usr/bin:/usr/lpp/mmfs/bin"}, name: "mmfsadm", args: []string{"test", "verbs", "conn"}}},
		{"PATH=${PATH}:/x mmdiag --config -Y", true, plainCall{env: []string{"PATH=/n/bin:/usr/bin:/x"}, name: "mmdiag", args: []string{"--config", "-Y"}}},
		{"mmchconfig 'verbsPorts=mlx5_0/1 mlx5_1/1' -N gpfs01,gpfs02", true,
			plainCall{name: "mmchconfig", args: []string{"verbsPorts=mlx5_0/1 mlx5_1/1", "-N", "gpfs01,gpfs02"}}},
		{`mmchconfig verbsPorts="mlx5_0/1 mlx5_1/1"`, true, plainCall{name: "mmchconfig", args: []string{"verbsPorts=mlx5_0/1 mlx5_1/1"}}},
		{"A=1 B=$A x", true, plainCall{env: []string{"A=1", "B=1"}, name: "x"}},
		{"x a=b", true, plainCall{name: "x", args: []string{"a=b"}}},
		{"x a#b", true, plainCall{name: "x", args: []string{"a#b"}}},
		{"ibstat | grep State", false, plainCall{}},
		{"ibstat; ibdev2netdev", false, plainCall{}},
		{"ibstat\nibdev2netdev", false, plainCall{}},
		{"ibstat && true", false, plainCall{}},
		{"ibstat > /tmp/x", false, plainCall{}},
		{"ibstat 2>&1", false, plainCall{}},
		{"ibstat $HOME", false, plainCall{}},
		{`ibstat "$HOME"`, false, plainCall{}},
		{"ibstat `id`", false, plainCall{}},
		{"ibstat $(id)", false, plainCall{}},
		{"ibstat *", false, plainCall{}},
		{"ibstat ~/x", false, plainCall{}},
		{"X=~/y ibstat", false, plainCall{}},
		{"ibstat 'unterminated", false, plainCall{}},
		{`ibstat "a\"b"`, false, plainCall{}},
		{"ibstat # comment", false, plainCall{}},
		{"/usr/lpp/mmfs/bin/mmfsadm test verbs conn", false, plainCall{}},
		{"'ibstat'", false, plainCall{}},
		{"X=1", false, plainCall{}},
		{"export X", false, plainCall{}},
		{"export X=1 Y=2\nibstat", false, plainCall{}},
		{"exec ibstat", false, plainCall{}},
		{"cd /tmp", false, plainCall{}},
		{"", false, plainCall{}},
		{"# only a comment", false, plainCall{}},
		{"ibstat &", false, plainCall{}},
		{"(ibstat)", false, plainCall{}},
		{"ibstat\\ x", false, plainCall{}},
	} {
		got, ok := parsePlain(tc.cmd, get)
		if ok != tc.ok || ok && !reflect.DeepEqual(got, tc.want) {
			t.Errorf("parsePlain(%q) = %+v, %v; want %+v, %v", tc.cmd, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzParsePlain(f *testing.F) {
	for _, s := range []string{"ibstat", "# x\nexport A=b\nPATH=$PATH:/x mmfsadm test verbs conn", "a 'b c' \"d\"", "x ${A}", "A=$B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		pc, ok := parsePlain(s, func(string) string { return "v" })
		if ok && pc.name == "" {
			t.Fatalf("%q: plain call without a program", s)
		}
	})
}
