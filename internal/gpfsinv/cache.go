package gpfsinv

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/inventory"
)

// CacheDir is the directory under the record directory that holds one
// cached answer per admin node (<admin>.json). Run record listings ignore
// it: its name is not a run ID.
const CacheDir = "gpfs-inventory"

// cacheVersion is the format of a cache file.
const cacheVersion = 1

// cached is a cache file: the cluster as found and the raw outputs it was
// read from.
type cached struct {
	Version int                    `json:"version"`
	Cluster *inventory.GPFSCluster `json:"cluster"`
	Outputs Outputs                `json:"outputs"`
}

// CachePath is the cache file of admin node admin under recordDir.
func CachePath(recordDir, admin string) string {
	return filepath.Join(recordDir, CacheDir, admin+".json")
}

// LoadCache reads the cached answer of admin; a missing file is
// fs.ErrNotExist.
func LoadCache(recordDir, admin string) (*inventory.GPFSCluster, error) {
	path := CachePath(recordDir, admin)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c cached
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, fmt.Errorf("cached GPFS inventory %s: %w", path, err)
	}
	if c.Version != cacheVersion || c.Cluster == nil || len(c.Cluster.Nodes) == 0 {
		return nil, fmt.Errorf("cached GPFS inventory %s: not a version %d cache with nodes", path, cacheVersion)
	}
	return c.Cluster, nil
}

// saveCache writes the answer of c.Admin atomically.
func saveCache(recordDir string, c *inventory.GPFSCluster, outs Outputs) error {
	path := CachePath(recordDir, c.Admin)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("cache GPFS inventory: %w", err)
	}
	b, err := json.MarshalIndent(cached{Version: cacheVersion, Cluster: c, Outputs: outs}, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("cache GPFS inventory: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("cache GPFS inventory: %w", err)
	}
	return nil
}

// Options say when a cached copy may stand in for asking the cluster.
type Options struct {
	RecordDir string
	// Refresh asks the cluster even when the cached copy is younger than
	// the source's max_age.
	Refresh bool
	// Cached uses the cached copy when asking fails (the admin node is
	// down or unreachable, a command fails); without it that is an error.
	Cached bool
	// Reuse, when > 0, lets a cached copy younger than this stand in
	// whatever max_age says: the second look of one command (apply's
	// lock reads the whole inventory again) sees the nodes of the first.
	Reuse time.Duration
	Now   func() time.Time
}

// Result is one source's cluster and where it came from.
type Result struct {
	Cluster *inventory.GPFSCluster
	// FromCache is set when Cluster is the cached copy; AskErr then says
	// why the cluster was not asked successfully (nil: the copy was
	// younger than max_age).
	FromCache bool
	AskErr    error
	CachePath string
	// CacheErr is a failure to write the cache after a successful asking
	// (the answer is still used).
	CacheErr error
}

// Age is how old the cluster's answer is at now.
func (r Result) Age(now time.Time) time.Duration { return now.Sub(r.Cluster.FetchedAt) }

// Get returns the cluster of src: from the cached copy when it is younger
// than src.MaxAge and no refresh is asked for, else by asking the admin
// node through connect (and caching the answer); when asking fails the
// cached copy is used only with opt.Cached, and the error says whether
// there is one and how old it is.
func Get(ctx context.Context, src inventory.GPFSSource, connect func() (module.Host, error), opt Options) (Result, error) {
	now := time.Now
	if opt.Now != nil {
		now = opt.Now
	}
	res := Result{CachePath: CachePath(opt.RecordDir, src.Admin)}
	cache, cacheErr := LoadCache(opt.RecordDir, src.Admin)
	if cacheErr != nil && !errors.Is(cacheErr, fs.ErrNotExist) {
		return res, cacheErr
	}
	maxAge := max(src.MaxAge, opt.Reuse)
	if cache != nil && (!opt.Refresh || opt.Reuse > 0) && maxAge > 0 && now().Sub(cache.FetchedAt) < maxAge {
		res.Cluster, res.FromCache = cache, true
		return res, nil
	}
	var c *inventory.GPFSCluster
	var outs Outputs
	h, err := connect()
	if err == nil {
		c, outs, err = Ask(ctx, h, now())
	}
	if err != nil {
		err = fmt.Errorf("GPFS inventory: asking admin node %s failed: %w", src.Admin, err)
		switch {
		case cache != nil && opt.Cached:
			res.Cluster, res.FromCache, res.AskErr = cache, true, err
			return res, nil
		case cache != nil:
			return res, fmt.Errorf("%w\n  a cached copy from %s (%s old) is in %s: --gpfs-cached uses it", err,
				cache.FetchedAt.Format(time.RFC3339), Round(now().Sub(cache.FetchedAt)), res.CachePath)
		default:
			return res, fmt.Errorf("%w\n  there is no cached copy (%s)", err, res.CachePath)
		}
	}
	c.Admin = src.Admin
	res.Cluster = c
	res.CacheErr = saveCache(opt.RecordDir, c, outs)
	return res, nil
}

// Round rounds an age for people: to the second under a minute, else to
// the minute.
func Round(d time.Duration) time.Duration {
	if d < time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(time.Minute)
}
