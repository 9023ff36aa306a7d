package gpfsrestart

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// DefaultBatch is the share of the plain nodes (neither quorum, manager
// nor NSD server) restarted at once when the step does not say.
const DefaultBatch = "10%"

// batchSize resolves batch ("20" or "10%") against the number of plain
// nodes; the result is at least 1.
func batchSize(batch string, plain int) (int, error) {
	b := strings.TrimSpace(batch)
	if p, ok := strings.CutSuffix(b, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f <= 0 || f > 100 {
			return 0, fmt.Errorf("batch %q: want a number of nodes or a share such as \"10%%\"", batch)
		}
		return max(1, int(math.Ceil(float64(plain)*f/100))), nil
	}
	n, err := strconv.Atoi(b)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("batch %q: want a number of nodes or a share such as \"10%%\"", batch)
	}
	return n, nil
}

// planWaves splits nodes into restart waves. Plain nodes go first, in
// batches of size. Then quorum nodes, managers and NSD servers, NSD
// servers that are not quorum nodes first: a wave never holds two servers
// of one NSD, more quorum nodes than maxQuorumDown, more than one manager
// that is not a quorum node, nor more than size nodes.
func planWaves(t *topology, nodes []string, size int) ([][]string, error) {
	var plain, special []string
	for _, n := range nodes {
		if t.special(n) {
			special = append(special, n)
		} else {
			plain = append(plain, n)
		}
	}
	var waves [][]string
	for len(plain) > 0 {
		k := min(size, len(plain))
		waves = append(waves, slices.Clone(plain[:k]))
		plain = plain[k:]
	}
	slices.SortStableFunc(special, func(a, b string) int {
		switch {
		case t.quorum[a] == t.quorum[b]:
			return 0
		case t.quorum[a]:
			return 1
		}
		return -1
	})
	maxQ := t.maxQuorumDown()
	for len(special) > 0 {
		var wave, rest []string
		nsd := map[string]bool{}
		q, mgr := 0, 0
		for _, n := range special {
			fits := len(wave) < size
			for _, d := range t.serves[n] {
				fits = fits && !nsd[d]
			}
			if t.quorum[n] {
				fits = fits && q < maxQ
			} else if t.manager[n] {
				fits = fits && mgr < 1
			}
			if !fits {
				rest = append(rest, n)
				continue
			}
			wave = append(wave, n)
			for _, d := range t.serves[n] {
				nsd[d] = true
			}
			if t.quorum[n] {
				q++
			} else if t.manager[n] {
				mgr++
			}
		}
		if len(wave) == 0 {
			return waves, fmt.Errorf("quorum node %s cannot restart without losing quorum: %d quorum nodes%s; add quorum nodes or tiebreakerDisks, or use mode = \"cluster\" in a maintenance window",
				rest[0], t.quorumCount(), map[bool]string{true: " with tiebreaker disks", false: " and no tiebreaker disks"}[t.tiebreaker])
		}
		waves = append(waves, wave)
		special = rest
	}
	return waves, nil
}
