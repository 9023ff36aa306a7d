package rdmalat

import (
	"fmt"
	"testing"
)

func TestScheduleAllPairsDisjointAndComplete(t *testing.T) {
	for n := 2; n <= 9; n++ {
		var hosts []string
		for i := 0; i < n; i++ {
			hosts = append(hosts, fmt.Sprintf("h%d", i))
		}
		seen := map[[2]string]bool{}
		for _, round := range schedule(hosts, "all", "") {
			busy := map[string]bool{}
			for _, p := range round {
				if busy[p.server] || busy[p.client] {
					t.Fatalf("n=%d: a host is in two tests of one round: %v", n, round)
				}
				busy[p.server], busy[p.client] = true, true
				k := [2]string{p.server, p.client}
				if p.client < p.server {
					k = [2]string{p.client, p.server}
				}
				if seen[k] {
					t.Fatalf("n=%d: pair %v twice", n, k)
				}
				seen[k] = true
			}
		}
		if want := n * (n - 1) / 2; len(seen) != want {
			t.Fatalf("n=%d: %d pairs, want %d", n, len(seen), want)
		}
	}
}

func TestScheduleReference(t *testing.T) {
	rounds := schedule([]string{"a", "b", "c"}, "reference", "b")
	if len(rounds) != 2 || rounds[0][0] != (pair{"b", "a"}) || rounds[1][0] != (pair{"b", "c"}) {
		t.Fatalf("rounds = %v", rounds)
	}
}
