package gds_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/provadev/prova/lab/labtest"
)

// Over SSH in the lab: gdscheck runs at the CUDA toolkit's path and on the
// PATH without hiding the rest of /usr/local, and a node without GDS has no
// gdscheck at all.
func TestGdscheckInLab(t *testing.T) {
	labtest.NeedRoot(t)
	sc, err := filepath.Abs("../../../examples/lab/gds-no-gpu.hcl")
	if err != nil {
		t.Fatal(err)
	}
	l := labtest.Start(t, 2, sc)
	c := labtest.Client(t, l, "gds01")
	r := labtest.MustRun(t, c, "/usr/local/cuda/gds/tools/gdscheck -p && gdscheck -v && ls /usr/local")
	if r.Status != 0 || !strings.Contains(r.Stdout, " IBM Spectrum Scale : dmabuf, compat\n") || !strings.Contains(r.Stdout, "GDS release version: 1.16.0.49\n nvidia_fs version:  2.27") {
		t.Fatalf("gds01: %+v", r)
	}
	if entries, err := os.ReadDir("/usr/local"); err == nil {
		for _, e := range entries {
			if !strings.Contains(r.Stdout, "\n"+e.Name()+"\n") {
				t.Errorf("/usr/local/%s hidden on the node: %q", e.Name(), r.Stdout)
			}
		}
	}
	if _, err := os.Stat("/usr/local/cuda/gds/tools/gdscheck"); err == nil {
		t.Log("this machine has its own gdscheck")
	}
	r = labtest.MustRun(t, labtest.Client(t, l, "gds02"), "gdscheck -p | head -2")
	if r.Stdout != " No GPU found in the system, use this library only for sysmem\n GDS release version: 1.16.0.49\n" {
		t.Errorf("gds02: %+v", r)
	}
	off, _ := filepath.Abs("../../../examples/lab/gds-not-installed.hcl")
	l2 := labtest.Start(t, 1, off)
	r = labtest.MustRun(t, labtest.Client(t, l2, "gds01"), "/usr/local/cuda/gds/tools/gdscheck -p")
	if r.Status != 127 || !strings.Contains(r.Stderr, "/usr/local/cuda/gds/tools/gdscheck: not found") {
		t.Errorf("not installed: %+v", r)
	}
}

// Over SSH: nvidia-fs's counters rise by what gdsio read when the read
// goes GPU-direct (gds01, configured) and stay flat in compatibility mode
// (gds02 of gds-compat, NVIDIA's cufile.json as installed); gdsio prints
// the same GPUD line for both.
func TestGdsioCountersInLab(t *testing.T) {
	labtest.NeedRoot(t)
	sc, err := filepath.Abs("../../../examples/lab/gds-compat.hcl")
	if err != nil {
		t.Fatal(err)
	}
	l := labtest.Start(t, 2, sc)
	const read = "cat /proc/driver/nvidia-fs/stats | grep '^Reads.*readMiB'; " +
		"/usr/local/cuda/gds/tools/gdsio -f /gpfs/fs0/gds-check/64M.bin -d 0 -w 1 -s 64M -i 1M -x 0 -I 0; " +
		"cat /proc/driver/nvidia-fs/stats | grep '^Reads.*readMiB'"
	for host, want := range map[string]string{
		"gds01": "Reads\t\t\t\t: n=64 ok=64 err=0 readMiB=64 io_state_err=0\n",
		"gds02": "Reads\t\t\t\t: n=0 ok=0 err=0 readMiB=0 io_state_err=0\n",
	} {
		r := labtest.MustRun(t, labtest.Client(t, l, host), read)
		lines := strings.Split(r.Stdout, "\n")
		if r.Status != 0 || len(lines) != 4 || lines[0]+"\n" != "Reads\t\t\t\t: n=0 ok=0 err=0 readMiB=0 io_state_err=0\n" ||
			!strings.HasPrefix(lines[1], "IoType: READ XferType: GPUD Threads: 1 DataSetSize: 65536/65536(KiB) IOSize: 1024(KiB) Throughput: ") ||
			lines[2]+"\n" != want {
			t.Errorf("%s: %+v", host, r)
		}
	}
	r := labtest.MustRun(t, labtest.Client(t, l, "gds01"), "/usr/local/cuda/gds/tools/gdsio -f /tmp/x -d 0 -s 64M -x 0 -I 0")
	if r.Status != 1 || !strings.Contains(r.Stderr, "not on a mounted file system") {
		t.Errorf("file off the mount: %+v", r)
	}
}
