package fio

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fioBinary returns the fio executable, skipping the test when fio is not
// installed (failing under CI=true, where it must be).
func fioBinary(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("fio")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("fio not installed (apt-get install -y fio)")
		}
		t.Skip("fio not installed")
	}
	return p
}

// runFio runs fio with args and returns stdout and the exit status.
func runFio(t *testing.T, args ...string) ([]byte, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, fioBinary(t), args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return stdout.Bytes(), 0
	case ctx.Err() != nil:
		t.Fatalf("fio timed out: %s", stderr.String())
	case !errors.As(err, &ee):
		t.Fatalf("fio: %v", err)
	}
	return stdout.Bytes(), ee.ExitCode()
}

func jobArgs(dir, format string) []string {
	return []string{"--name=realrand", "--filename=" + filepath.Join(dir, "fio.dat"), "--size=4M",
		"--rw=randread", "--bs=4k", "--ioengine=psync", "--runtime=1", "--time_based=0",
		"--output-format=" + format}
}

func TestRealFio(t *testing.T) {
	dir := t.TempDir()
	for _, format := range []string{"json", "normal", "json+", "normal,json"} {
		t.Run(format, func(t *testing.T) {
			out, rc := runFio(t, jobArgs(dir, format)...)
			if rc != 0 {
				t.Fatalf("fio exit %d:\n%s", rc, out)
			}
			r, err := Parse(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if r.Format != format || len(r.Jobs) != 1 || r.Jobs[0].Name != "realrand" || r.Version == "" {
				t.Fatalf("got format %q, %d jobs, version %q", r.Format, len(r.Jobs), r.Version)
			}
			rd := r.Jobs[0].Read
			if rd == nil || r.Jobs[0].Write != nil {
				t.Fatalf("job %+v", r.Jobs[0])
			}
			// 4 MiB read once in 4 KiB blocks, unless the 1 s runtime cut it.
			if rd.IOBytes == 0 || rd.IOBytes > 4<<20 || rd.IOBytes%4096 != 0 || rd.IOPS <= 0 || rd.MiBps <= 0 {
				t.Errorf("read %+v", rd)
			}
			if rd.Clat.Mean <= 0 || rd.Clat.Min > rd.Clat.Mean || rd.Clat.Mean > rd.Clat.Max || rd.ClatPercentiles["50"] <= 0 {
				t.Errorf("clat %+v %v", rd.Clat, rd.ClatPercentiles)
			}
			// IOPS × 4 KiB is the bandwidth, within the rounding of the text format.
			if bw := rd.IOPS * 4096 / (1 << 20); bw < rd.MiBps*0.9 || bw > rd.MiBps*1.1 {
				t.Errorf("IOPS %v and MiB/s %v disagree", rd.IOPS, rd.MiBps)
			}
			if b := r.Total(); b.Op != "read" || b.IOPS != rd.IOPS || !b.LatUs.Has(1) {
				t.Errorf("Total() = %+v", b)
			}
		})
	}
}

func TestRealFioFailedJob(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"json", "normal"} {
		args := []string{"--name=notdir", "--filename=" + filepath.Join(plain, "x"), "--size=4M", "--rw=randread",
			"--bs=4k", "--ioengine=psync", "--output-format=" + format}
		out, rc := runFio(t, args...)
		if rc == 0 {
			t.Fatalf("%s: fio succeeded on a file below a regular file:\n%s", format, out)
		}
		_, err := Parse(out)
		if format == "json" {
			wantErr(t, err, 0, `job "notdir" failed with error 20`)
		} else {
			wantErr(t, err, 0, "") // stdout lacks the error text (stderr has it) but has no results
		}
	}
}

// TestRealFioSeveralJobsAndTwoRuns: real fio with two job processes (no
// group_reporting) and a second group after a stonewall prints several
// results in one run, read as that many jobs; the output of two runs
// pasted together is refused, in both text and JSON.
func TestRealFioSeveralJobsAndTwoRuns(t *testing.T) {
	dir := t.TempDir()
	file := "--filename=" + filepath.Join(dir, "fio.dat")
	common := []string{file, "--size=1M", "--bs=4k", "--ioengine=psync", "--rw=read"}
	for _, format := range []string{"normal", "json"} {
		args := append([]string{"--output-format=" + format,
			"--name=first", "--numjobs=2"}, common...)
		args = append(args, "--name=second", "--stonewall", "--new_group")
		args = append(args, common...)
		out, rc := runFio(t, args...)
		if rc != 0 {
			t.Fatalf("fio exit %d:\n%s", rc, out)
		}
		r, err := Parse(out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", format, err, out)
		}
		var names []string
		groups := map[int]bool{}
		for _, j := range r.Jobs {
			names = append(names, j.Name)
			groups[j.GroupID] = true
		}
		if len(r.Jobs) != 3 || names[0] != "first" || names[1] != "first" || names[2] != "second" || len(groups) != 2 {
			t.Errorf("%s: jobs %v in groups %v", format, names, groups)
		}
		twice := append(append([]byte{}, out...), out...)
		if _, err := Parse(twice); err == nil || !strings.Contains(err.Error(), "two fio outputs run together") && !strings.Contains(err.Error(), "JSON") {
			t.Errorf("%s twice: %v", format, err)
		}
	}
}
