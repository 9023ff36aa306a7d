package record

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// DefaultRoot is where run records live, relative to the working directory.
const DefaultRoot = ".prova/runs"

var runIDPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$`)

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
// directory holding the run directories, e.g. DefaultRoot): the greatest
// run ID with a run.json. Directories not named like a run ID are ignored.
// With no record, the error wraps fs.ErrNotExist.
func Latest(root string) (string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return "", fmt.Errorf("find latest run: %w", err)
	}
	for i := len(ents) - 1; i >= 0; i-- { // ReadDir sorts by name
		e := ents[i]
		if !e.IsDir() || !IsRunID(e.Name()) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if _, err := os.Stat(filepath.Join(dir, runFile)); err == nil {
			return dir, nil
		}
	}
	return "", fmt.Errorf("no run records in %s: %w", root, fs.ErrNotExist)
}
