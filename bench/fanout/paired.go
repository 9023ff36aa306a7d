package benchfanout

import (
	"fmt"
	"slices"
	"time"
)

// Paired reports whether tool takes part in the paired rounds: the floor,
// the lockstep floor and the prova variants, whose ratios to the floor are
// the goals and the barrier split. They are quick enough to run once each
// per round. The references (OpenSSH, Ansible) take up to minutes a run at
// 200 hosts and run after the rounds, each on its own.
func Paired(tool string) bool {
	switch tool {
	case Floor, FloorLockstep, Prova, ProvaFree, ProvaBaseline:
		return true
	}
	return false
}

// RoundOrder is the order in which round r runs the k paired tools: their
// order rotated by r, so that no tool always runs first, last or right
// after the same other one (the machine's state after a run, its sshd
// processes still being reaped, its caches, favour or penalise the run
// that follows).
func RoundOrder(k, r int) []int {
	order := make([]int, k)
	for j := range order {
		order[j] = (r + j) % k
	}
	return order
}

// PairedRatio is the median over rounds of tool's figure divided by
// base's in the same round, with the smallest and largest of those
// ratios: rows taken in paired rounds (Row.Paired, one sample per round,
// as many rounds each). A drift of the machine during a run moves both
// figures of a round, and a round disturbed alone moves one ratio of many
// rather than a mean. ok is false when the rows are not paired, have no
// rounds, or base's figure is not positive in some round.
func PairedRatio(tool, base Row, figure func(Usage) time.Duration) (r RatioSpread, ok bool) {
	if !tool.Paired || !base.Paired || len(tool.Samples) == 0 || len(tool.Samples) != len(base.Samples) {
		return RatioSpread{}, false
	}
	ratios := make([]float64, len(tool.Samples))
	for i := range tool.Samples {
		b := figure(base.Samples[i])
		if b <= 0 {
			return RatioSpread{}, false
		}
		ratios[i] = figure(tool.Samples[i]).Seconds() / b.Seconds()
	}
	slices.Sort(ratios)
	n := len(ratios)
	med := ratios[n/2]
	if n%2 == 0 {
		med = (ratios[n/2-1] + ratios[n/2]) / 2
	}
	return RatioSpread{Median: med, Min: ratios[0], Max: ratios[n-1], Rounds: n}, true
}

// RatioSpread is a paired ratio: the median of the rounds' ratios, their
// range, and how many rounds.
type RatioSpread struct {
	Median, Min, Max float64
	Rounds           int
}

// String is "1.23x [1.10-1.31, 10 rounds]".
func (r RatioSpread) String() string {
	return fmt.Sprintf("%.2fx [%.2f-%.2f, %d rounds]", r.Median, r.Min, r.Max, r.Rounds)
}

// cpuOf and wallOf are the figures the goals compare.
func cpuOf(u Usage) time.Duration  { return u.CPU() }
func wallOf(u Usage) time.Duration { return u.Wall }

// ratioCell is tool's figure over base's at the same N as the goals print
// it: the paired ratio with its spread when the rows are paired, else the
// ratio of the means.
func ratioCell(tool, base Row, figure func(Usage) time.Duration) (float64, string) {
	if r, ok := PairedRatio(tool, base, figure); ok {
		return r.Median, r.String()
	}
	x := figure(tool.Usage).Seconds() / figure(base.Usage).Seconds()
	return x, fmt.Sprintf("%.2fx", x)
}
