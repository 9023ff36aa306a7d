package rdmalat

import (
	"fmt"
	"testing"

	"github.com/provadev/prova/parse/perftest"
)

func hostNames(n int) []string {
	hs := make([]string, n)
	for i := range hs {
		hs[i] = fmt.Sprintf("gpfs%04d", i+1)
	}
	return hs
}

func measurements(rounds [][]pair) []measure {
	var ms []measure
	i := 0
	for _, r := range rounds {
		for _, p := range r {
			i++
			ms = append(ms, measure{pair: p, row: &perftest.LatencyRow{AvgUs: 1.5 + float64(i%7)/10, TypicalUs: 1.5, P99Us: 2}})
		}
	}
	return ms
}

// TestJudgeWorkPerHost: in reference mode every host but the reference is
// in one pair and gets one pair in its result; the reference gets all.
func TestJudgeWorkPerHost(t *testing.T) {
	hs := hostNames(1000)
	rounds := schedule(hs, "reference", hs[0])
	if len(rounds) != 999 {
		t.Fatalf("%d rounds", len(rounds))
	}
	out := judge(hs, measurements(rounds), args{Tool: "ib_write_lat", OutlierFactor: 3})
	for _, h := range hs {
		want := 1
		if h == hs[0] {
			want = 999
		}
		if got := out[h].Outputs.GetAttr("pairs").LengthInt(); got != want {
			t.Fatalf("%s: %d pairs, want %d", h, got, want)
		}
	}
}

// BenchmarkJudge shows judge's cost growing with the measurements (N-1 in
// reference mode, N(N-1)/2 for all pairs), not faster.
func BenchmarkJudge(b *testing.B) {
	for _, tc := range []struct {
		mode  string
		hosts int
	}{{"reference", 250}, {"reference", 1000}, {"all", 100}, {"all", 200}} {
		hs := hostNames(tc.hosts)
		ms := measurements(schedule(hs, tc.mode, hs[0]))
		b.Run(fmt.Sprintf("%s/hosts=%d", tc.mode, tc.hosts), func(b *testing.B) {
			for b.Loop() {
				judge(hs, ms, args{Tool: "ib_write_lat", OutlierFactor: 3})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(ms)), "ns/measure")
		})
	}
}
