package inventory

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
)

// LoadOptions are the options of LoadWith.
type LoadOptions struct {
	// CacheDir, when set, is a directory of parsed HCL inventories: a load
	// whose source files are byte for byte those of a cached entry made by
	// the same prova build reads the entry instead of parsing (see
	// cache.go). Empty: no cache, as Load.
	CacheDir string
}

// LoadWith is Load with options. Only an HCL inventory file is cached
// (Ansible inventories load without one); an inventory with any
// diagnostic, even a warning, is never cached, so a broken file is always
// parsed and reported afresh. A cache that cannot be read or written is
// passed over: the inventory is then parsed as by Load. fromCache reports
// whether the inventory was read from a cache entry.
func LoadWith(path string, opts LoadOptions) (inv *Inventory, diags hcl.Diagnostics, fromCache bool) {
	inv, diags, o := loadWith(path, opts)
	return inv, diags, o == cacheHit
}

// cacheOutcome says what loadWith did with the cache.
type cacheOutcome int

const (
	cacheUnused cacheOutcome = iota // no cache asked for, or not an HCL file
	cacheHit                        // served from a verified entry
	cacheStored                     // parsed and stored
	cacheMiss                       // parsed, not stored (diagnostics, or the entry could not be written)
)

func loadWith(path string, opts LoadOptions) (*Inventory, hcl.Diagnostics, cacheOutcome) {
	if opts.CacheDir == "" {
		inv, diags := Load(path)
		return inv, diags, cacheUnused
	}
	st, err := os.Stat(path)
	if err != nil || st.IsDir() {
		inv, diags := Load(path)
		return inv, diags, cacheUnused
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, readDiag(err), cacheUnused
	}
	if DetectFormat(path, src) != FormatHCL {
		inv, diags := Load(path)
		return inv, diags, cacheUnused
	}
	sum := sha256.Sum256(src)
	files := []cacheFile{{path: path, sum: sum}}
	entry := cacheEntryPath(opts.CacheDir, path)
	if inv, ok := readCacheEntry(entry, files); ok {
		inv.Files, inv.Hash = []string{path}, hex.EncodeToString(sum[:])
		(&gpfsState{sources: inv.GPFS}).attach(inv, path, src)
		return inv, nil, cacheHit
	}
	inv, diags := Parse(path, src)
	if len(diags) > 0 || inv == nil {
		return inv, diags, cacheMiss
	}
	if writeCacheEntry(opts.CacheDir, entry, files, inv) != nil {
		return inv, diags, cacheMiss
	}
	return inv, diags, cacheStored
}

// cacheFile is a source file of a cached inventory and the SHA-256 of the
// bytes it was parsed from.
type cacheFile struct {
	path string
	sum  [sha256.Size]byte
}

// cacheEntryPath names the entry of an inventory path (made absolute, so
// that one relative name in two directories does not share an entry): one
// entry per file, so the cache holds the last version of each inventory
// only. The entry records the path as given, which its ranges hold.
func cacheEntryPath(dir, path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(dir, hex.EncodeToString(sum[:16])+".inv")
}

// cacheMagic opens every entry; the version moves whenever the codec or
// what a load makes of a file changes in a way the build identity would
// not show.
const cacheMagic = "prova-inventory-cache/1\n"

// buildIdentity tells apart the prova builds that may parse differently:
// the module version and VCS state, the Go version, the versions of every
// dependency (hcl and cty parse), and the executable's size and time, so
// that two development builds of one commit do not share entries.
var buildIdentity = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	if bi, ok := debug.ReadBuildInfo(); ok {
		b.WriteString(bi.GoVersion + "\n" + bi.Main.Path + "@" + bi.Main.Version + " " + bi.Main.Sum + "\n")
		for _, d := range bi.Deps {
			b.WriteString(d.Path + "@" + d.Version + " " + d.Sum + "\n")
		}
		for _, s := range bi.Settings {
			b.WriteString(s.Key + "=" + s.Value + "\n")
		}
	}
	if exe, err := os.Executable(); err == nil {
		if st, err := os.Stat(exe); err == nil {
			b.WriteString(exe + " " + strconv.FormatInt(st.Size(), 10) + " " + strconv.FormatInt(st.ModTime().UnixNano(), 10) + "\n")
		}
	}
	sum := sha256.Sum256(b.Bytes())
	return sum[:]
})

// readCacheEntry reads and verifies the entry at entry: the magic, the
// build, every source file's path and SHA-256 against files, and the
// checksum of the whole entry. Any mismatch or damage is a miss.
func readCacheEntry(entry string, files []cacheFile) (*Inventory, bool) {
	data, err := os.ReadFile(entry)
	if err != nil || len(data) < len(cacheMagic)+sha256.Size {
		return nil, false
	}
	body, tail := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], tail) {
		return nil, false
	}
	if !bytes.HasPrefix(body, []byte(cacheMagic)) {
		return nil, false
	}
	r := &cacheReader{buf: body[len(cacheMagic):]}
	if !bytes.Equal(r.bytes(), buildIdentity()) {
		return nil, false
	}
	if n := r.uvarint(); r.err != nil || n != uint64(len(files)) {
		return nil, false
	}
	for _, f := range files {
		if string(r.bytes()) != f.path || !bytes.Equal(r.bytes(), f.sum[:]) {
			return nil, false
		}
	}
	inv := r.inventory()
	if r.err != nil || len(r.buf) != 0 {
		return nil, false
	}
	return inv, true
}

// writeCacheEntry writes inv's entry atomically: to a temporary file in
// dir, renamed over the entry, so that a reader (another prova process
// included) sees a whole old entry, a whole new one or none; two writers
// racing each rename a whole entry of their own. The directory and the
// entries are private to the user (the inventory's variables are in
// them).
func writeCacheEntry(dir, entry string, files []cacheFile, inv *Inventory) error {
	w := &cacheWriter{}
	w.buf = append(w.buf, cacheMagic...)
	w.bytes(buildIdentity())
	w.uvarint(uint64(len(files)))
	for _, f := range files {
		w.bytes([]byte(f.path))
		w.bytes(f.sum[:])
	}
	w.inventory(inv)
	if w.err != nil {
		return w.err
	}
	sum := sha256.Sum256(w.buf)
	data := append(w.buf, sum[:]...)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	pruneCache(dir, time.Now())
	tmp, err := os.CreateTemp(dir, ".tmp-*.inv")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), entry)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// Entries not rewritten for cacheMaxAge (an inventory deleted, renamed or
// unchanged for that long: it is then parsed once more) and temporary
// files older than tmpMaxAge (a writer that died before its rename) are
// removed when an entry is written.
const (
	cacheMaxAge = 30 * 24 * time.Hour
	tmpMaxAge   = time.Hour
)

func pruneCache(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		maxAge := cacheMaxAge
		switch {
		case strings.HasPrefix(name, ".tmp-") && strings.HasSuffix(name, ".inv"):
			maxAge = tmpMaxAge
		case strings.HasSuffix(name, ".inv") && !strings.HasPrefix(name, "."):
		default:
			continue // not the cache's
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && now.Sub(info.ModTime()) > maxAge {
			os.Remove(filepath.Join(dir, name))
		}
	}
}
