package eval

import (
	"fmt"
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
			k, share := rng.IntN(8), rng.IntN(4) == 0
			applied := Applied{Changed: rng.IntN(2) == 0, RC: rng.IntN(3), Stdout: []string{"", "ok", host}[rng.IntN(3)],
				Message: []string{"", "m"}[rng.IntN(2)]}
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
				case 7:
					r.SetApplied(step, host, ty, applied)
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

// With more records than parallelSettle, an indexed store makes a step's
// results on every core, table and map records alike, and gives the map
// store's per_host map.
func TestIndexedResultsSettleManyHosts(t *testing.T) {
	ty := ResultType(cty.EmptyObject)
	n := 3 * parallelSettle
	infos := make([]HostInfo, n)
	for i := range infos {
		infos[i] = HostInfo{Name: fmt.Sprintf("h%04d", i)}
	}
	s := NewScope(nil, infos, nil, "", map[string]cty.Type{"x": ty})
	indexed, plain := NewResults(), NewResults()
	indexed.indexed(s)
	for i, h := range infos {
		for _, r := range []*Results{indexed, plain} {
			switch i % 4 {
			case 0:
				r.SetPlanned("x", h.Name, ty, i%8 == 0)
			case 1:
				r.SetSkipped("x", h.Name, ty)
			case 2:
				r.SetApplied("x", h.Name, ty, Applied{RC: i % 3, Stdout: h.Name})
			case 3:
				r.SetUnknown("x", h.Name, ty)
			}
		}
	}
	if g, p := indexed.perHost("x", ty), plain.perHost("x", ty); !g.RawEquals(p) {
		t.Fatalf("per_host of %d hosts differs from the map store's", n)
	}
}

// Applied records of inventory hosts are copies in the step's table,
// rewritten by a later record of the host: hosts recording and reading
// attributes, own results and per_host at once each read a whole record
// (every record of a host holds its name as stdout), race-clean under
// -race.
func TestAppliedTableConcurrent(t *testing.T) {
	ty := ResultType(cty.EmptyObject)
	infos := make([]HostInfo, 8)
	for i := range infos {
		infos[i] = HostInfo{Name: fmt.Sprintf("h%d", i)}
	}
	s := NewScope(nil, infos, nil, "", map[string]cty.Type{"x": ty})
	r := NewResults()
	r.indexed(s)
	for _, h := range infos {
		r.SetApplied("x", h.Name, ty, Applied{Stdout: h.Name})
	}
	stdout := hcl.Traversal{hcl.TraverseAttr{Name: "stdout"}}
	errs := make(chan error, 4)
	for w := range 4 {
		go func() {
			for j := range 300 {
				h := infos[(w+j)%len(infos)].Name
				r.SetApplied("x", h, ty, Applied{RC: j % 3, Stdout: h})
				read := infos[(w*3+j)%len(infos)].Name
				if v, ok := r.ownAt("x", read, ty, stdout); !ok || v.AsString() != read {
					errs <- fmt.Errorf("stdout of %s read %q", read, v.AsString())
					return
				}
				if j%50 == 0 {
					if got := r.perHost("x", ty).LengthInt(); got != len(infos) {
						errs <- fmt.Errorf("per_host holds %d hosts, want %d", got, len(infos))
						return
					}
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// A per_host map read before a later record keeps what it held: perHost
// hands the step's values map to cty.MapVal, which copies it.
func TestPerHostKeepsItsValues(t *testing.T) {
	ty := ResultType(cty.EmptyObject)
	r := NewResults()
	r.Set("x", "a", SkippedResult(ty, "a"))
	before := r.perHost("x", ty)
	r.Set("x", "b", SkippedResult(ty, "b"))
	r.Set("x", "a", PlannedResult(ty, "a", true))
	if before.LengthInt() != 1 || !before.Index(cty.StringVal("a")).RawEquals(SkippedResult(ty, "a")) {
		t.Fatalf("per_host read before the later records changed: %#v", before)
	}
	if after := r.perHost("x", ty); after.LengthInt() != 2 {
		t.Fatalf("per_host after the records: %#v", after)
	}
}
