package eval

import (
	"math/rand/v2"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"
)

// A store that keeps the inventory hosts' records by kind in its tables
// (indexed, as the engine's is) answers every question as one that keeps
// them all in maps: random records of every kind, on inventory hosts and
// one the inventory does not list, each followed by reads of one host's
// result, an attribute of it, the per_host map and Get.
func TestIndexedResultsMatchMaps(t *testing.T) {
	ty := ResultType(cty.EmptyObject)
	infos := []HostInfo{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}
	s := NewScope(nil, infos, nil, "", map[string]cty.Type{"x": ty, "y": ty})
	hosts := []string{"a", "b", "c", "d", "stray"}
	for seed := range uint64(50) {
		rng := rand.New(rand.NewPCG(seed, 3))
		indexed, plain := NewResults(), NewResults()
		indexed.indexed(s)
		if indexed.inv.Load() == nil || plain.inv.Load() != nil {
			t.Fatal("indexed did not index the store")
		}
		for op := range 60 {
			step := []string{"x", "y"}[rng.IntN(2)]
			host := hosts[rng.IntN(len(hosts))]
			k, share := rng.IntN(7), rng.IntN(4) == 0
			for _, r := range []*Results{indexed, plain} {
				switch k {
				case 0:
					r.SetPlanned(step, host, ty, false)
				case 1:
					r.SetPlanned(step, host, ty, true)
				case 2:
					r.SetSkipped(step, host, ty)
				case 3:
					r.SetUnknown(step, host, ty)
				case 4:
					r.Set(step, host, PlannedResult(ty, host, true))
				case 5:
					r.SetFunc(step, host, func() cty.Value { return SkippedResult(ty, host) })
				case 6:
					if share {
						r.Share(step, host)
					}
				}
			}
			read := hosts[rng.IntN(len(hosts))]
			attr := hcl.Traversal{hcl.TraverseAttr{Name: []string{"changed", "skipped", "host", "rc"}[rng.IntN(4)]}}
			ga, gaOK := indexed.ownAt(step, read, ty, attr)
			pa, paOK := plain.ownAt(step, read, ty, attr)
			if gaOK != paOK || !ga.RawEquals(pa) {
				t.Fatalf("seed %d op %d: ownAt %s of %s.%s: %#v, maps %#v", seed, op, attr[0].(hcl.TraverseAttr).Name, step, read, ga, pa)
			}
			if rng.IntN(3) == 0 {
				if g, p := indexed.own(step, read, ty), plain.own(step, read, ty); !g.RawEquals(p) {
					t.Fatalf("seed %d op %d: own %s.%s: %#v, maps %#v", seed, op, step, read, g, p)
				}
			}
			if rng.IntN(5) == 0 {
				if g, p := indexed.perHost(step, ty), plain.perHost(step, ty); !g.RawEquals(p) {
					t.Fatalf("seed %d op %d: per_host.%s: %#v, maps %#v", seed, op, step, g, p)
				}
			}
			if rng.IntN(7) == 0 {
				g, gok := indexed.Get(step, read)
				p, pok := plain.Get(step, read)
				if gok != pok || (gok && !g.RawEquals(p)) {
					t.Fatalf("seed %d op %d: Get %s.%s: %#v, maps %#v", seed, op, step, read, g, p)
				}
			}
		}
	}
}
