package bench

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/engine/transport/local"
)

// TestRealFio runs the bench module with the installed fio (and mpstat,
// when installed) through the local host on a temporary file. fio is
// required under CI=true.
func TestRealFio(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fio is not installed; CI must have it")
		}
		t.Skip("fio not installed")
	}
	path := filepath.Join(t.TempDir(), "fio.dat")
	for _, mode := range []string{"randread", "write"} {
		t.Run(mode, func(t *testing.T) {
			body := "tool = \"fio\"\npath = \"" + path + "\"\nmode = \"" + mode + "\"\nsize = \"8M\"\nruntime = \"2s\"\ndirect = false\niodepth = 4"
			resp, err := NewBlock().Apply(context.Background(), module.ApplyRequest{Host: local.New("localhost"), Args: decode(t, NewBlock(), body)})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Failed {
				t.Fatalf("%s\n%s", resp.Message, resp.Stderr)
			}
			o := resp.Outputs
			if num(t, o, "iops") <= 0 || num(t, o, "mib_s") <= 0 || num(t, o, "lat_avg_us") <= 0 || num(t, o, "runtime_s") < 1 {
				t.Errorf("outputs = %#v", o)
			}
			if _, err := exec.LookPath("mpstat"); err == nil {
				if isNull(o, "cpu") {
					t.Errorf("mpstat is installed but cpu is null: %s", resp.Message)
				} else if num(t, o, "cpu", "samples") < 1 {
					t.Errorf("cpu samples = %v", num(t, o, "cpu", "samples"))
				}
			}
			t.Log(resp.Message)
		})
	}
}
