package sim

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// Memo keeps decoded state between the tool runs of one process: the lab
// server, which runs plain calls of simulated tools in process, gives
// every Env the same Memo. Without it (Env.Memo nil, as in "prova lab sim")
// every command decodes its state files again, which at 1,000 nodes is
// most of a GPFS command's cost.
//
// A cached value is valid for one version of its file: every write under
// Update stores a fresh random version in the file's lock file, in any
// process, so a write made by a tool outside the lab server (a command
// that went through /bin/sh) invalidates the cache of the server.
type Memo struct {
	mu sync.Mutex
	m  map[string]memoEntry
}

type memoEntry struct {
	version string
	v       any
}

// NewMemo returns an empty memo.
func NewMemo() *Memo { return &Memo{m: map[string]memoEntry{}} }

// Load returns the value stored under key for version; never for "".
func (m *Memo) Load(key, version string) (any, bool) {
	if m == nil || version == "" {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	if !ok || e.version != version {
		return nil, false
	}
	return e.v, true
}

// Cached returns the value kept under key, whatever its version (for
// tests: the value must match the file it was read from).
func (m *Memo) Cached(key string) (any, bool) {
	if m == nil {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	return e.v, ok
}

// Store keeps v under key for version. The caller must not change v
// afterwards: readers share it.
func (m *Memo) Store(key, version string, v any) {
	if m == nil || version == "" {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = memoEntry{version, v}
}

// UpdateShared is Update for a state that e.Memo keeps decoded between
// commands. clone must return a copy of a value that fn may change without
// changing the original (the memo keeps one copy, fn works on another).
// Without a memo it is Update.
func UpdateShared[T any](e *Env, path string, v *T, clone func(*T) *T, fn func() (changed bool, err error)) error {
	if e.Memo == nil {
		return e.Update(path, v, fn)
	}
	f, unlock, err := lockFile(path, syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer unlock()
	version := readVersion(f)
	var pristine *T
	if cached, ok := e.Memo.Load(path, version); ok {
		*v = *clone(cached.(*T))
	} else {
		found, err := readJSON(path, v)
		if err != nil {
			return err
		}
		if found {
			pristine = clone(v)
		}
	}
	changed, err := fn()
	if err != nil {
		return err
	}
	if !changed {
		if pristine != nil {
			e.Memo.Store(path, version, pristine)
		}
		return nil
	}
	version, err = e.write(path, f, v)
	if err != nil {
		return err
	}
	e.Memo.Store(path, version, clone(v))
	return nil
}

// write encodes v into path (through a temporary file and a rename),
// stores a new version in the lock file f and records the write for the
// audit log. It returns the new version.
func (e *Env) write(path string, f *os.File, v any) (string, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encode state %s: %w", filepath.Base(path), err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return "", fmt.Errorf("write state: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return "", fmt.Errorf("write state: %w", err)
	}
	version, err := writeVersion(f)
	if err != nil {
		return "", err
	}
	rel, _ := filepath.Rel(e.Dir, path)
	return version, e.mark("write " + rel)
}

const versionLen = 32

func readVersion(f *os.File) string {
	b := make([]byte, versionLen)
	if n, _ := f.ReadAt(b, 0); n != versionLen {
		return "" // never written under Update: not cached
	}
	return string(b)
}

func writeVersion(f *os.File) (string, error) {
	b := make([]byte, versionLen/2)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("state version: %w", err)
	}
	v := hex.EncodeToString(b)
	if _, err := f.WriteAt([]byte(v), 0); err != nil {
		return "", fmt.Errorf("state version: %w", err)
	}
	return v, nil
}
