package rdmalat

// pair is one test: a server and a client.
type pair struct{ server, client string }

// schedule returns rounds of pairs; within a round no host appears twice,
// so a round's pairs may run at the same time.
//
// reference: every other host against ref, one at a time (they all share
// ref). all pairs: the circle method, n-1 rounds (n rounded up to even).
func schedule(hosts []string, mode, ref string) [][]pair {
	if mode == "reference" {
		var rounds [][]pair
		for _, h := range hosts {
			if h != ref {
				rounds = append(rounds, []pair{{server: ref, client: h}})
			}
		}
		return rounds
	}
	ring := append([]string(nil), hosts...)
	if len(ring)%2 == 1 {
		ring = append(ring, "")
	}
	n := len(ring)
	var rounds [][]pair
	for r := 0; r < n-1; r++ {
		var round []pair
		for i := 0; i < n/2; i++ {
			a, b := ring[i], ring[n-1-i]
			if a == "" || b == "" {
				continue
			}
			round = append(round, pair{server: a, client: b})
		}
		rounds = append(rounds, round)
		// Rotate all but the first.
		last := ring[n-1]
		copy(ring[2:], ring[1:n-1])
		ring[1] = last
	}
	return rounds
}
