package ofed

import (
	"errors"
	"slices"
	"testing"

	"github.com/provadev/prova/parse"
)

func TestParseSampleVariants(t *testing.T) {
	secs := sections(t, "ofed_info/ofed_info-s-variants-multiple-sources.txt")
	want := []struct {
		pkg, version string
		parts        []int
	}{
		{"MLNX_OFED_LINUX", "4.0-2.0.0.1", []int{4, 0, 2, 0, 0, 1}},
		{"MLNX_OFED_LINUX", "23.10-1.1.9.0", []int{23, 10, 1, 1, 9, 0}},
		{"MLNX_OFED_LINUX", "5.4-3.1.0.0", []int{5, 4, 3, 1, 0, 0}},
		{"", "5.4-3.1.0.0", []int{5, 4, 3, 1, 0, 0}}, // ofed_info -n
		{"MLNX_OFED_LINUX", "5.1-0.6.6.0", []int{5, 1, 0, 6, 6, 0}},
		{"MLNX_OFED_LINUX", "24.10-1.1.4.0", []int{24, 10, 1, 1, 4, 0}}, // no trailing colon
	}
	var got []*Result
	for _, s := range secs {
		if len(s) == 0 {
			continue
		}
		r, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	if len(got) != len(want) {
		t.Fatalf("want %d outputs, got %d", len(want), len(got))
	}
	for i, w := range want {
		g := got[i]
		if g.NotInstalled || g.Package != w.pkg || g.Version != w.version || !slices.Equal(g.Parts, w.parts) || g.Full {
			t.Errorf("output %d: got %+v, want %+v", i, g, w)
		}
	}
	if got[0].Raw != "MLNX_OFED_LINUX-4.0-2.0.0.1:" {
		t.Errorf("raw %q", got[0].Raw)
	}
}

func TestParseFullAndDOCA(t *testing.T) {
	r, err := Parse([]byte("MLNX_OFED_LINUX-5.8-1.0.1.1 (OFED-5.8-1.0.1):\n\nclusterkit:\nmlnx_ofed_clusterkit/clusterkit-1.8.428-1.58101.src.rpm\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != "5.8-1.0.1.1" || r.Base != "OFED-5.8-1.0.1" || !r.Full {
		t.Errorf("full: %+v", r)
	}
	d, err := Parse([]byte("OFED-internal-24.10-0.7.0:\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Package != "OFED-internal" || d.Version != "24.10-0.7.0" {
		t.Errorf("doca: %+v", d)
	}
}

func TestParseNotInstalled(t *testing.T) {
	for _, in := range []string{"bash: ofed_info: command not found\n", ""} {
		r, err := Parse([]byte(in))
		if err != nil || !r.NotInstalled || r.Version != "" {
			t.Errorf("%q: %+v %v", in, r, err)
		}
	}
}

func TestParseGarbage(t *testing.T) {
	_, err := Parse([]byte("\nhello world\n"))
	var pe *parse.Error
	if !errors.As(err, &pe) || pe.Tool != "ofed_info" || pe.Line != 2 || pe.Text != "hello world" {
		t.Errorf("got %v", err)
	}
}

func TestCompareVersions(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"5.8-1.0.1.1", "5.8-1.0.1.1", 0},
		{"5.8-1.0.1.1", "5.8-2.0.3.0", -1},
		{"24.10-1.1.4.0", "5.8-1.0.1.1", 1},
		{"MLNX_OFED_LINUX-23.10-1.1.9.0", "23.10-1.1.9.0", 0},
		{"5.8", "5.8-0.0.0.0", 0},
		{"4.9-7.1.0.0", "4.10-0.0.0.0", -1},
	}
	for _, c := range cases {
		if got := CompareVersions(c.a, c.b); got != c.want {
			t.Errorf("CompareVersions(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range sections(f, "ofed_info/ofed_info-s-variants-multiple-sources.txt") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Parse(data)
		if err != nil {
			var pe *parse.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error is %T: %v", err, err)
			}
			return
		}
		if res == nil || (!res.NotInstalled && res.Version == "") {
			t.Fatalf("result without version: %+v", res)
		}
	})
}
