package bench

import (
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"
)

// DestroysData implements module.Destructive: a fio or elbencho run that
// writes to a raw block device (a path under /dev/) overwrites whatever the
// device holds (a file system, NVMe namespace data). Writes to a file and
// every read are not destructive.
func (*Block) DestroysData(v cty.Value) string {
	a, err := decodeArgs(v, "")
	if err != nil || a.reads() || a.Path == nil || !strings.HasPrefix(*a.Path, "/dev/") {
		return ""
	}
	return fmt.Sprintf("%s %s writes to the raw block device %s", a.Tool, a.Mode, *a.Path)
}
