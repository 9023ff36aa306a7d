package clusterlock

import (
	"os"
	"os/exec"
	"path/filepath"

	"github.com/provadev/prova/engine/module"
	"testing"
)

// TestLockDirIsDirname: the acquire script's lockDir makes and finds the
// directory dirname(1) names, for lock paths whose directory exists and
// does not, nested, relative, with "." and "..", doubled slashes, spaces
// and quotes, at the root; and never makes the lock path itself a
// directory.
func TestLockDirIsDirname(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "have"), 0o755); err != nil {
		t.Fatal(err)
	}
	paths := []string{
		root + "/have/cluster.lock",
		root + "/new/a/b/cluster.lock",
		root + "/have/../other/cluster.lock",
		root + "//doubled//dir//cluster.lock",
		root + "/./dot/cluster.lock",
		root + "/with space/it's/cluster.lock",
		"cluster.lock",
		"rel/dir/cluster.lock",
		"/cluster.lock",
	}
	for _, p := range paths {
		// After lockDir, D names the directory; compare it with dirname's
		// by inode (cd + pwd -P), and check the lock path is no directory.
		script := "L=" + module.Quote(p) + "\n" + lockDir + `
a=$(cd "${D:-/}" && pwd -P) || exit 3
b=$(cd "$(dirname "$L")" && pwd -P) || exit 4
[ "$a" = "$b" ] || { echo "lockDir $a, dirname $b"; exit 5; }
[ ! -d "$L" ] || { echo "the lock path was made a directory"; exit 6; }
`
		cmd := exec.Command(sh, "-c", script)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%q: %v: %s", p, err, out)
		}
	}
}
