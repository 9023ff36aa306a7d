package inventory

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestCacheMatchesFreshLoad loads every differential inventory and HCL
// fixture through the cache twice: a clean inventory is stored by the
// first load and served by the second, and what is served is what a fresh
// load gives (hosts, groups, values with types and precision, ranges, the
// GPFS merge); an inventory with any diagnostic is parsed every time,
// reported the same, and never stored.
func TestCacheMatchesFreshLoad(t *testing.T) {
	dir := t.TempDir()
	hits := 0
	for _, path := range diffCases(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			want, wantDiags := Load(path)
			first, firstDiags, o1 := loadWith(path, LoadOptions{CacheDir: dir})
			requireSameLoad(t, want, wantDiags, first, firstDiags)
			second, secondDiags, o2 := loadWith(path, LoadOptions{CacheDir: dir})
			requireSameLoad(t, want, wantDiags, second, secondDiags)
			entry := cacheEntryPath(dir, path)
			_, statErr := os.Stat(entry)
			if len(wantDiags) > 0 {
				if o1 != cacheMiss || o2 != cacheMiss || statErr == nil {
					t.Fatalf("inventory with diagnostics: outcomes %d, %d, entry stored: %v", o1, o2, statErr == nil)
				}
				return
			}
			if o1 != cacheStored || o2 != cacheHit || statErr != nil {
				t.Fatalf("outcomes %d, %d (want stored, hit), entry: %v", o1, o2, statErr)
			}
			hits++
			if len(want.GPFS) > 0 {
				wm, wd := want.WithGPFS([]*GPFSCluster{labCluster()})
				gm, gd := second.WithGPFS([]*GPFSCluster{labCluster()})
				requireSameLoad(t, wm, wd, gm, gd)
				wa, werr := want.AddGPFS(GPFSSource{Admin: "other.mgmt"})
				ga, gerr := second.AddGPFS(GPFSSource{Admin: "other.mgmt"})
				if (werr == nil) != (gerr == nil) {
					t.Fatalf("AddGPFS: %v, %v", werr, gerr)
				}
				requireSameLoad(t, wa, nil, ga, nil)
			}
		})
	}
	if hits < 5 {
		t.Errorf("only %d inventories served from the cache", hits)
	}
}

// TestCacheInvalidatedByAnyByteChange changes one byte of a cached
// inventory, then breaks it: neither load is served from the entry.
func TestCacheInvalidatedByAnyByteChange(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "inv.hcl")
	src := bigInventory(50)
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(src)
	if _, _, o := loadWith(path, LoadOptions{CacheDir: cache}); o != cacheStored {
		t.Fatalf("first load: outcome %d", o)
	}
	changed := strings.Replace(src, `serial = "SN000049"`, `serial = "SN000048"`, 1)
	if changed == src {
		t.Fatal("the change did not apply")
	}
	write(changed)
	want, wantDiags := Load(path)
	got, gotDiags, o := loadWith(path, LoadOptions{CacheDir: cache})
	if o != cacheStored {
		t.Fatalf("after a one-byte change: outcome %d, want a fresh parse stored", o)
	}
	requireSameLoad(t, want, wantDiags, got, gotDiags)
	if h, _ := got.Host("node0049"); h.Vars["serial"].AsString() != "SN000048" {
		t.Fatalf("served the old value %#v", h.Vars["serial"])
	}
	write(strings.Replace(changed, `address = "10.0.0.49"`, `address = 10.0.0.49"`, 1))
	want, wantDiags = Load(path)
	got, gotDiags, o = loadWith(path, LoadOptions{CacheDir: cache})
	if !gotDiags.HasErrors() || o != cacheMiss || got != nil {
		t.Fatalf("broken file: outcome %d, inventory %v, diagnostics %v", o, got != nil, gotDiags)
	}
	requireSameLoad(t, want, wantDiags, got, gotDiags)
}

// TestCacheDamagedEntry: a truncated, altered or foreign entry is never
// served; the inventory is parsed again and the entry rewritten.
func TestCacheDamagedEntry(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "inv.hcl")
	if err := os.WriteFile(path, []byte(diffInventories["precedence.hcl"]), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := Load(path)
	if _, _, o := loadWith(path, LoadOptions{CacheDir: cache}); o != cacheStored {
		t.Fatalf("outcome %d", o)
	}
	entry := cacheEntryPath(cache, path)
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 1
	other := append([]byte(nil), good...)
	copy(other[len(cacheMagic):], "x") // another build, checksum left wrong
	for name, data := range map[string][]byte{
		"truncated": good[:len(good)-7], "flipped": flipped, "other": other, "empty": nil, "garbage": []byte("not an entry"),
	} {
		if err := os.WriteFile(entry, data, 0o600); err != nil {
			t.Fatal(err)
		}
		got, diags, o := loadWith(path, LoadOptions{CacheDir: cache})
		if o != cacheStored {
			t.Errorf("%s entry: outcome %d, want parsed and stored again", name, o)
		}
		requireSameLoad(t, want, nil, got, diags)
	}
	// an entry of another source file (same path, other bytes) is refused
	// by the file check even with a valid checksum
	if _, ok := readCacheEntry(entry, []cacheFile{{path: path}}); ok {
		t.Error("entry served for a file with another SHA-256")
	}
}

// TestCacheConcurrentLoads runs loads of one inventory through one cache
// at once (as two prova processes would: each writes a temporary file and
// renames it): every load gives the fresh inventory, and no temporary
// file is left.
func TestCacheConcurrentLoads(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "inv.hcl")
	if err := os.WriteFile(path, []byte(bigInventory(200)), 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := Load(path)
	var wg sync.WaitGroup
	got := make([]*Inventory, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			inv, diags, _ := loadWith(path, LoadOptions{CacheDir: cache})
			if diags.HasErrors() {
				t.Error(diags)
			}
			got[i] = inv
		}()
	}
	wg.Wait()
	for _, inv := range got {
		requireSameLoad(t, want, nil, inv, nil)
	}
	left, _ := filepath.Glob(filepath.Join(cache, ".tmp-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if _, _, o := loadWith(path, LoadOptions{CacheDir: cache}); o != cacheHit {
		t.Errorf("after the race: outcome %d, want a hit", o)
	}
}

// TestCacheUnusable: a cache directory that cannot be made is passed
// over, and Ansible inventories are not cached.
func TestCacheUnusable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "inv.hcl")
	if err := os.WriteFile(path, []byte(diffInventories["gpfs.hcl"]), 0o644); err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	want, _ := Load(path)
	got, diags, o := loadWith(path, LoadOptions{CacheDir: filepath.Join(blocker, "cache")})
	if o != cacheMiss {
		t.Errorf("outcome %d, want a miss", o)
	}
	requireSameLoad(t, want, nil, got, diags)
	ini := filepath.Join(dir, "hosts.ini")
	if err := os.WriteFile(ini, []byte(bigINI(10)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, o := loadWith(ini, LoadOptions{CacheDir: filepath.Join(dir, "c")}); o != cacheUnused {
		t.Errorf("INI inventory: outcome %d, want the cache unused", o)
	}
}

// TestCacheCodecCoversTypes fails when a field is added to a type the
// cache codec writes: teach cachecodec.go the field, then update the
// count here.
func TestCacheCodecCoversTypes(t *testing.T) {
	for _, c := range []struct {
		v    any
		want int
	}{
		{Host{}, 6}, {Group{}, 6}, {Connection{}, 14}, {Inventory{}, 10}, {GPFSSource{}, 5},
	} {
		if n := reflect.TypeOf(c.v).NumField(); n != c.want {
			t.Errorf("%T has %d fields, the cache codec knows %d", c.v, n, c.want)
		}
	}
}

// FuzzCacheEntry decodes arbitrary entries: never a panic, and an entry
// that decodes is one the codec would write again the same way.
func FuzzCacheEntry(f *testing.F) {
	dir := f.TempDir()
	path := filepath.Join(dir, "inv.hcl")
	for _, name := range []string{"literals.hcl", "precedence.hcl", "gpfs.hcl"} {
		if err := os.WriteFile(path, []byte(diffInventories[name]), 0o644); err != nil {
			f.Fatal(err)
		}
		inv, _ := Load(path)
		w := &cacheWriter{}
		w.inventory(inv)
		if w.err != nil {
			f.Fatal(w.err)
		}
		f.Add(w.buf)
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		r := &cacheReader{buf: payload}
		inv := r.inventory()
		if r.err != nil || inv == nil {
			return
		}
		w := &cacheWriter{}
		w.inventory(inv)
		if w.err != nil {
			t.Fatalf("decoded inventory not encodable: %v", w.err)
		}
	})
}

// TestCachePrune: writing an entry removes entries and temporary files
// left long enough, and nothing else.
func TestCachePrune(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	old := time.Now().Add(-cacheMaxAge - time.Hour)
	files := map[string]time.Time{
		"aaaa.inv":         old,                            // an entry not rewritten for too long
		"bbbb.inv":         time.Now(),                     // a recent entry
		".tmp-1.inv":       time.Now().Add(-2 * tmpMaxAge), // a dead writer's
		".tmp-2.inv":       time.Now(),                     // a writer at work
		"notes.txt":        old,                            // not the cache's
		"dir.inv/keep.inv": old,
	}
	for name, mtime := range files {
		p := filepath.Join(cache, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "inv.hcl")
	if err := os.WriteFile(path, []byte(diffInventories["gpfs.hcl"]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, o := loadWith(path, LoadOptions{CacheDir: cache}); o != cacheStored {
		t.Fatalf("outcome %d", o)
	}
	for name := range files {
		_, err := os.Stat(filepath.Join(cache, name))
		gone := os.IsNotExist(err)
		if want := name == "aaaa.inv" || name == ".tmp-1.inv"; gone != want {
			t.Errorf("%s: removed %t, want %t", name, gone, want)
		}
	}
}
