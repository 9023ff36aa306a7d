package benchfanout

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRoundOrderRotates(t *testing.T) {
	seen := map[int]bool{}
	for r := range 3 {
		o := RoundOrder(3, r)
		sorted := slices.Clone(o)
		slices.Sort(sorted)
		if !slices.Equal(sorted, []int{0, 1, 2}) {
			t.Fatalf("RoundOrder(3, %d) = %v: not every tool once", r, o)
		}
		seen[o[0]] = true
	}
	if len(seen) != 3 {
		t.Fatalf("over 3 rounds the first tools were %v: want each tool first once", seen)
	}
	if o := RoundOrder(3, 4); !slices.Equal(o, []int{1, 2, 0}) {
		t.Fatalf("RoundOrder(3, 4) = %v, want [1 2 0]", o)
	}
}

func pairedRow(tool string, cpus ...time.Duration) Row {
	r := Row{Hosts: 10, Tool: tool, Paired: true}
	for _, c := range cpus {
		r.Samples = append(r.Samples, usage(10*c, c, 10*mib))
	}
	r.Runs, r.Usage = len(r.Samples), Mean(r.Samples)
	return r
}

func TestPairedRatioIsTheMedianOfTheRounds(t *testing.T) {
	ms := time.Millisecond
	// Round 3 is disturbed for prova alone (a 400 ms run): the mean ratio
	// would be 1.75x, the rounds' median is 1.10x.
	floor := pairedRow(Floor, 100*ms, 100*ms, 100*ms, 100*ms)
	prova := pairedRow(Prova, 110*ms, 105*ms, 400*ms, 115*ms)
	r, ok := PairedRatio(prova, floor, cpuOf)
	if !ok {
		t.Fatal("PairedRatio: not ok on paired rows")
	}
	near := func(a, b float64) bool { return a > b-1e-9 && a < b+1e-9 }
	if r.Rounds != 4 || !near(r.Median, 1.125) || !near(r.Min, 1.05) || !near(r.Max, 4) {
		t.Fatalf("PairedRatio = %+v, want median 1.125 of 4 rounds, range 1.05-4", r)
	}
	if got := r.String(); got != "1.12x [1.05-4.00, 4 rounds]" && got != "1.13x [1.05-4.00, 4 rounds]" {
		t.Fatalf("String = %q", got)
	}
	// Rows of different round counts, or not paired, have no paired ratio.
	short := pairedRow(Prova, 110*ms)
	if _, ok := PairedRatio(short, floor, cpuOf); ok {
		t.Fatal("PairedRatio ok on rows of 1 and 4 rounds")
	}
	unpaired := prova
	unpaired.Paired = false
	if _, ok := PairedRatio(unpaired, floor, cpuOf); ok {
		t.Fatal("PairedRatio ok on a row not taken in rounds")
	}
	zero := pairedRow(Floor, 100*ms, 0, 100*ms, 100*ms)
	if _, ok := PairedRatio(prova, zero, cpuOf); ok {
		t.Fatal("PairedRatio ok with a round whose floor figure is 0")
	}
}

func TestGoalsReadPairedRoundsByTheirMedian(t *testing.T) {
	ms := time.Millisecond
	rows := []Row{
		pairedRow(Floor, 100*ms, 100*ms, 100*ms),
		pairedRow(Prova, 110*ms, 400*ms, 115*ms),
		pairedRow(ProvaBaseline, 130*ms, 125*ms, 120*ms),
	}
	got := strings.Join(Goals(rows), "\n")
	want := "goal: prova client CPU <= 1.2x the floor's: N=10 1.15x [1.10-4.00, 3 rounds] (baseline 1.25x [1.20-1.30, 3 rounds]): met"
	if !strings.Contains(got, want) {
		t.Fatalf("Goals lack %q:\n%s", want, got)
	}
}
