package profile

import (
	"fmt"
	"sort"
	"strings"
)

// Profile is a set of acceptance thresholds for the three lines of
// DOMAIN.md §5: latency, CPU and bandwidth.
type Profile struct {
	Name string
	// MaxLatencyRatio: RDMA latency / TCP latency must be at most this.
	// "About 1/3 of TCP" with tolerance.
	MaxLatencyRatio float64
	// MinSoftDropPct: RDMA %soft must be at least this much lower than
	// TCP's, in percent of TCP's (50 means RDMA ≤ 0.5 × TCP).
	MinSoftDropPct float64
	// FewerBusyCores: RDMA must also keep fewer cores busy than TCP.
	FewerBusyCores bool
	// MinBandwidthShare: large sequential bandwidth below this share of
	// the line rate is a warning, never a failure (TCP reaches it too).
	MinBandwidthShare float64
	// Description says where the numbers come from.
	Description string
}

// Default is the name of the default profile.
const Default = "prova-default/1"

func profiles() map[string]Profile {
	return map[string]Profile{
		Default: {
			Name:              Default,
			MaxLatencyRatio:   0.45,
			MinSoftDropPct:    50,
			FewerBusyCores:    true,
			MinBandwidthShare: 0.90,
			Description: "DOMAIN.md §5 on 100GbE: 4K random-read latency about 1/3 of TCP (~25 µs vs ~90 µs; " +
				"pass up to 0.45), %soft clearly down (RDMA at most half of TCP's) with fewer busy cores " +
				"(1-2 vs 8-12), large sequential bandwidth 90% of line rate as a reference only (warning).",
		},
	}
}

// Lookup returns the profile called name.
func Lookup(name string) (Profile, error) {
	p, ok := profiles()[name]
	if !ok {
		return Profile{}, fmt.Errorf("unknown threshold profile %q (known: %s)", name, strings.Join(Names(), ", "))
	}
	return p, nil
}

// Names returns the known profile names, sorted.
func Names() []string {
	var out []string
	for n := range profiles() {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
