package record

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// MinFree is the free space CheckRoom asks of the record directory's file
// system before a run starts: room for run.json, the trail and the
// compressed raw outputs of a large run.
const MinFree = 8 << 20

// CheckRoom makes sure root can take a run record before the run makes
// its first change: it creates root, writes, syncs and removes a probe
// file there, and checks that the file system has at least minFree bytes
// free. The error says what is wrong and where.
func CheckRoom(root string, minFree uint64) error {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return fmt.Errorf("the record directory %s cannot be created: %w", root, err)
	}
	f, err := os.CreateTemp(root, ".probe-*")
	if err != nil {
		return fmt.Errorf("the record directory %s is not writable: %w", root, err)
	}
	name := f.Name()
	defer os.Remove(name)
	_, err = f.Write(make([]byte, 4096))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("the record directory %s cannot be written: %w", root, err)
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(filepath.Clean(root), &st); err != nil {
		return fmt.Errorf("the record directory %s: free space unknown: %w", root, err)
	}
	free := st.Bavail * uint64(st.Bsize)
	if free < minFree {
		return fmt.Errorf("the record directory %s has %s free; a run record needs at least %s: free some space or choose another --record-dir",
			root, size(free), size(minFree))
	}
	return nil
}

func size(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
