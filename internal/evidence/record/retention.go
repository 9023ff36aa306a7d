package record

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// Prune keeps the newest keep run records under root and removes the
// older ones, except those a kept run names as its baseline and those
// named in protect (run IDs). keep < 1 keeps everything. Directories not
// named like a run ID are never touched. It returns the run IDs removed.
func Prune(root string, keep int, protect ...string) ([]string, error) {
	if keep < 1 {
		return nil, nil
	}
	runs, err := Runs(root)
	if err != nil {
		return nil, fmt.Errorf("prune run records: %w", err)
	}
	slices.Reverse(runs) // newest first
	kept := map[string]bool{}
	for _, id := range protect {
		kept[filepath.Base(id)] = true
	}
	for i, id := range runs {
		if i >= keep {
			break
		}
		kept[id] = true
		if b := baselineOf(filepath.Join(root, id)); b != "" {
			kept[filepath.Base(b)] = true
		}
	}
	var removed []string
	for _, id := range runs {
		if kept[id] {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, id)); err != nil {
			return removed, fmt.Errorf("prune run records: %w", err)
		}
		removed = append(removed, id)
	}
	return removed, nil
}

// baselineOf reads the baseline a record names, without rebuilding it.
func baselineOf(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, runFile))
	if err != nil {
		return ""
	}
	var rec struct {
		Meta struct {
			Baseline string `json:"baseline"`
		} `json:"meta"`
	}
	if json.Unmarshal(b, &rec) != nil {
		return ""
	}
	return rec.Meta.Baseline
}
