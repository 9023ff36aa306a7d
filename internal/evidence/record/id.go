package record

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/provadev/prova/internal/lazyre"
)

// DefaultRoot is where run records live, relative to the working directory.
const DefaultRoot = ".prova/runs"

var runIDPattern = lazyre.New(`^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$`)

// NewRunID returns an identifier that sorts by start time:
// 20261130T021500Z-<6 random hex digits>.
func NewRunID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand, Go 1.24+)
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
}

// IsRunID reports whether s has the shape NewRunID produces.
func IsRunID(s string) bool { return runIDPattern.MatchString(s) }

// Latest returns the directory of the most recent record under root (the
// directory holding the run directories, e.g. DefaultRoot): the newest run
// with a run.json, by run ID and, within one second, by start time.
// Directories not named like a run ID are ignored. With no record, the
// error wraps fs.ErrNotExist.
func Latest(root string) (string, error) {
	runs, err := Runs(root)
	if err != nil {
		return "", fmt.Errorf("find latest run: %w", err)
	}
	if len(runs) == 0 {
		return "", fmt.Errorf("no run records in %s: %w", root, fs.ErrNotExist)
	}
	return filepath.Join(root, runs[len(runs)-1]), nil
}

// Runs lists the run IDs under root that hold a run.json, oldest first:
// by the time in the ID, then by the start time run.json records (run IDs
// of the same second differ only in their random part).
func Runs(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	type run struct {
		id      string
		started time.Time
	}
	var runs []run
	for _, e := range ents {
		if !e.IsDir() || !IsRunID(e.Name()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, e.Name(), runFile))
		if err != nil {
			continue
		}
		var head struct {
			Meta struct {
				Started time.Time `json:"started"`
			} `json:"meta"`
		}
		_ = json.Unmarshal(b, &head) // a bad run.json sorts by its ID alone
		runs = append(runs, run{e.Name(), head.Meta.Started})
	}
	sort.SliceStable(runs, func(i, j int) bool {
		a, b := runs[i], runs[j]
		if a.id[:16] != b.id[:16] {
			return a.id < b.id
		}
		if !a.started.Equal(b.started) {
			return a.started.Before(b.started)
		}
		return a.id < b.id
	})
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = r.id
	}
	return out, nil
}
