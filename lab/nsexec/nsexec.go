// Package nsexec runs one command of a lab node inside a private mount
// namespace, so that the node's own files appear at the paths operators use
// (/proc/meminfo, /var/adm/ras/mmfs.log.latest, /etc/ceph/ceph.conf,
// /dev/nvme0n1, /root) without touching this machine's files.
//
// The lab server starts "prova lab nsexec" already inside new mount and UTS
// namespaces (exec.Cmd with CLONE_NEWNS, plus CLONE_NEWUSER when not root).
// Setup refuses to run in its parent's mount namespace. It makes every mount
// private, then maps the node tree DIR/nodes/NODE/root onto /: a top-level
// directory (etc, var, proc, dev) is merged, each entry below it is the
// node's own (a bind mount over the real path). When that path does not
// exist on this machine, its parent gets a tmpfs inside the namespace that
// re-binds every original entry (a "graft"), so nothing is ever created on
// the real file system. A node directory holding only directories, whose
// real counterpart exists, is merged the same way one level down (usr/local
// for /usr/local/cuda/gds/tools), so it does not hide the rest of
// /usr/local. /root is the node's home. The hostname is the
// node's name. Then the caller execs the command.
package nsexec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Setup prepares the current mount namespace for node root tree nodeRoot
// and sets the hostname. It must run in a fresh mount namespace.
func Setup(nodeRoot, hostname string) error {
	self, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		return fmt.Errorf("nsexec: %w", err)
	}
	parent, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/mnt", os.Getppid()))
	if err == nil && parent == self {
		return errors.New("nsexec: refusing to mount: not in a private mount namespace")
	}
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("nsexec: make mounts private: %w", err)
	}
	m := &mounter{grafted: map[string]bool{}}
	tops, err := os.ReadDir(nodeRoot)
	if err != nil {
		return fmt.Errorf("nsexec: %w", err)
	}
	for _, top := range tops {
		src := filepath.Join(nodeRoot, top.Name())
		dst := "/" + top.Name()
		if top.Name() == "root" || !exists(dst) {
			if err := m.place(src, dst); err != nil {
				return err
			}
			continue
		}
		if err := m.merge(src, dst); err != nil {
			return err
		}
	}
	if hostname != "" {
		if err := syscall.Sethostname([]byte(hostname)); err != nil {
			return fmt.Errorf("nsexec: set hostname: %w", err)
		}
	}
	return nil
}

type mounter struct{ grafted map[string]bool }

// merge places every entry of the node directory src at dst. An entry that
// is a non-empty directory of directories only, whose real counterpart is a
// directory too, is merged in turn, so that a node can add
// /usr/local/cuda/gds/tools without hiding the rest of /usr/local.
func (m *mounter) merge(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("nsexec: %w", err)
	}
	for _, e := range entries {
		s, d := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		if e.IsDir() && dirsOnly(s) && isDir(d) {
			if err := m.merge(s, d); err != nil {
				return err
			}
			continue
		}
		if err := m.place(s, d); err != nil {
			return err
		}
	}
	return nil
}

// dirsOnly reports whether dir holds at least one entry and only
// directories.
func dirsOnly(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() {
			return false
		}
	}
	return true
}

func isDir(p string) bool {
	st, err := os.Lstat(p)
	return err == nil && st.IsDir()
}

// place makes src visible at dst with a bind mount, grafting dst's parent
// when dst does not exist.
func (m *mounter) place(src, dst string) error {
	st, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("nsexec: %w", err)
	}
	if strings.HasPrefix(dst, "/proc/") && !exists(dst) && !graftableProc(dst) {
		return nil // procfs itself cannot be grafted; the real kernel has no such file
	}
	if !exists(dst) {
		if err := m.graft(filepath.Dir(dst)); err != nil {
			return err
		}
		if st.IsDir() {
			err = os.Mkdir(dst, 0o755)
		} else {
			err = os.WriteFile(dst, nil, 0o644)
		}
		if err != nil {
			return fmt.Errorf("nsexec: create mount point %s: %w", dst, err)
		}
	}
	if err := syscall.Mount(src, dst, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
		return fmt.Errorf("nsexec: bind %s: %w", dst, err)
	}
	return nil
}

// graftableProc reports whether dst lies below a directory of procfs that
// a tmpfs may cover (/proc/driver, always there: the kernel creates it):
// nvidia-fs's /proc/driver/nvidia-fs/stats is shown that way. /proc itself
// and per-process directories are never covered.
func graftableProc(dst string) bool {
	rest, _ := strings.CutPrefix(dst, "/proc/")
	top, _, nested := strings.Cut(rest, "/")
	return nested && top == "driver" && isDir("/proc/driver")
}

// graft covers dir with a tmpfs holding bind mounts of all its original
// entries, so new entries can be created in it inside the namespace only.
func (m *mounter) graft(dir string) error {
	if m.grafted[dir] {
		return nil
	}
	if !exists(dir) {
		if err := m.graft(filepath.Dir(dir)); err != nil {
			return err
		}
		if err := os.Mkdir(dir, 0o755); err != nil {
			return fmt.Errorf("nsexec: %w", err)
		}
		m.grafted[dir] = true
		return nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("nsexec: %w", err)
	}
	fd, err := syscall.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("nsexec: open %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("nsexec: %w", err)
	}
	mode := uint32(st.Mode().Perm())
	if st.Mode()&os.ModeSticky != 0 {
		mode |= 0o1000
	}
	opts := fmt.Sprintf("mode=%o", mode)
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		return fmt.Errorf("nsexec: graft %s: %w", dir, err)
	}
	for _, e := range entries {
		orig := fmt.Sprintf("/proc/self/fd/%d/%s", fd, e.Name())
		dst := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(orig)
			if err == nil {
				err = os.Symlink(target, dst)
			}
			if err != nil {
				return fmt.Errorf("nsexec: graft %s: %w", dst, err)
			}
			continue
		case e.IsDir():
			err = os.Mkdir(dst, 0o755)
		default:
			err = os.WriteFile(dst, nil, 0o644)
		}
		if err != nil {
			return fmt.Errorf("nsexec: graft %s: %w", dst, err)
		}
		if err := syscall.Mount(orig, dst, "", syscall.MS_BIND|syscall.MS_REC, ""); err != nil {
			return fmt.Errorf("nsexec: graft %s: %w", dst, err)
		}
	}
	m.grafted[dir] = true
	return nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
