package record

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Load reads the record in dir (or the run.json file named by dir). It
// reads both layouts (version 1 and 2). A record whose run never closed
// it (status "running": prova was killed, or is still running) is
// rebuilt from events.jsonl, which holds every finished host-step, and
// comes back with Status StatusIncomplete and Incomplete set.
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
	if rec.Status == StatusRunning {
		rb, err := rebuild(dir, rec)
		if err != nil {
			return nil, fmt.Errorf("load run record %s: the run never finished its record, and rebuilding it from %s failed: %w", dir, eventsFile, err)
		}
		rec = *rb
	}
	rec.Dir = dir
	return &rec, nil
}
