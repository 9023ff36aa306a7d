package record

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Load reads the record in dir (or the run.json file named by dir).
func Load(dir string) (*Record, error) {
	if filepath.Base(dir) == runFile {
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			dir = filepath.Dir(dir)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, runFile))
	if err != nil {
		return nil, fmt.Errorf("load run record: %w", err)
	}
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("load run record %s: %w", filepath.Join(dir, runFile), err)
	}
	if rec.Version < 1 || rec.Version > Version {
		return nil, fmt.Errorf("load run record %s: format version %d, this prova reads up to %d", dir, rec.Version, Version)
	}
	rec.Dir = dir
	return &rec, nil
}

// ReadRaw returns a raw output file named by a HostResult.Raw path. Paths
// leaving the record directory are refused.
func (r *Record) ReadRaw(rel string) ([]byte, error) {
	p := filepath.FromSlash(rel)
	if !filepath.IsLocal(p) {
		return nil, fmt.Errorf("read raw output %q: path leaves the record", rel)
	}
	b, err := os.ReadFile(filepath.Join(r.Dir, p))
	if err != nil {
		return nil, fmt.Errorf("read raw output: %w", err)
	}
	return b, nil
}
