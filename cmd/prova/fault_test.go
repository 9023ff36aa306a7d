package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/provadev/prova/internal/cli"
	"github.com/provadev/prova/internal/evidence/record"
	"github.com/provadev/prova/internal/testkit/sshtest"
)

// faultLab is one in-process SSH server running commands with /bin/sh, an
// inventory of one host "n1" pointing at it, and a working directory.
type faultLab struct {
	dir, inv string
}

func newFaultLab(t *testing.T) *faultLab {
	t.Helper()
	s := sshtest.NewServer(t, sshtest.ShellHandler)
	dir := t.TempDir()
	key, err := os.ReadFile(s.ClientKeyFile)
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "id_ed25519"), string(key), 0o600)
	write(t, filepath.Join(dir, "known_hosts"), s.KnownHostsLine()+"\n", 0o600)
	inv := filepath.Join(dir, "inventory.hcl")
	// The SSH server runs commands on this machine: apply's cluster lock
	// stays in dir.
	write(t, inv, fmt.Sprintf("defaults {\n  user = \"root\"\n  identity_file = \"id_ed25519\"\n  known_hosts = \"known_hosts\"\n  connect_timeout = \"5s\"\n  vars = { prova_lock_path = %q }\n}\n"+
		"host \"n1\" {\n  address = \"127.0.0.1\"\n  port = %d\n}\n", filepath.Join(dir, "cluster.lock"), s.Port), 0o644)
	return &faultLab{dir: dir, inv: inv}
}

func write(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// prova runs the CLI in this process.
func (l *faultLab) prova(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	t.Setenv("HOME", l.dir)
	t.Setenv("NO_COLOR", "1")
	t.Setenv("SSH_AUTH_SOCK", "")
	code := cli.Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestKill9LeavesTruthfulRecord kills a real prova process with SIGKILL
// while a step is running, then reads its record: INCOMPLETE in every
// report format, refused as a baseline unless forced, and --only-new
// against it treats the hosts it never verified as new.
func TestKill9LeavesTruthfulRecord(t *testing.T) {
	l := newFaultLab(t)
	fifo := filepath.Join(l.dir, "hold")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	rb := filepath.Join(l.dir, "rb.hcl")
	write(t, rb, fmt.Sprintf(`
step "shell" "first" { command = "echo one" }
step "shell" "hold" { command = "cat %s" }
step "shell" "last" { command = "echo three" }
`, fifo), 0o644)
	root := filepath.Join(l.dir, "runs")

	// The test binary runs the CLI when called as "prova" (testscript.Main).
	bin := filepath.Join(t.TempDir(), "prova")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "apply", rb, "-i", l.inv, "--record-dir", root, "--json")
	cmd.Dir = l.dir
	cmd.Env = append(os.Environ(), "HOME="+l.dir, "SSH_AUTH_SOCK=", "NO_COLOR=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait, event by event, until the held step is running on n1.
	sc := bufio.NewScanner(stdout)
	running := false
	for sc.Scan() {
		if strings.Contains(sc.Text(), `"type":"host_started"`) && strings.Contains(sc.Text(), `"step":"shell.hold"`) {
			running = true
			break
		}
	}
	if !running {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("the run never reached shell.hold; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatal("prova survived kill -9")
	}
	// Let the remote cat finish.
	if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}

	dir, err := record.Latest(root)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Incomplete || rec.Status != record.StatusIncomplete {
		t.Fatalf("killed record: status %q, incomplete %v", rec.Status, rec.Incomplete)
	}
	if hr := rec.Steps[0].Hosts["n1"]; rec.Steps[0].Step != "shell.first" || hr.Status != "changed" {
		t.Errorf("first step not in the rebuilt record: %+v", rec.Steps[0])
	}
	if out, err := rec.ReadRaw(rec.Steps[0].Hosts["n1"].Raw["stdout"]); err != nil || string(out) != "one\n" {
		t.Errorf("first step's stdout = %q, %v", out, err)
	}

	for format, want := range map[string]string{"md": "**Verdict: INCOMPLETE**", "junit": `type="incomplete"`, "json": `"verdict": "incomplete"`, "html": "Verdict: INCOMPLETE"} {
		code, out, errOut := l.prova(t, "report", dir, "--format", format, "--out", "-")
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("report --format %s: exit %d, want %q in:\n%s%s", format, code, want, out, errOut)
		}
	}

	next := filepath.Join(l.dir, "next.hcl")
	write(t, next, `step "shell" "ok" { command = "echo fine" }`+"\n", 0o644)
	code, _, errOut := l.prova(t, "apply", next, "-i", l.inv, "--record-dir", root, "--baseline", filepath.Base(dir))
	if code != 1 || !strings.Contains(errOut, "incomplete") || !strings.Contains(errOut, "--force-baseline") {
		t.Errorf("incomplete baseline: exit %d, stderr:\n%s", code, errOut)
	}
	code, out, errOut := l.prova(t, "apply", next, "-i", l.inv, "--record-dir", root, "--baseline", filepath.Base(dir), "--force-baseline", "--only-new")
	if code != 0 || !strings.Contains(errOut, "is incomplete") || !strings.Contains(out, "Apply complete") {
		t.Errorf("forced incomplete baseline with --only-new (n1 never finished, so it is new): exit %d\n%s%s", code, out, errOut)
	}
}

// mountTmpfs mounts a tmpfs of the given size (e.g. "64k") on a new
// directory and unmounts it in cleanup. Under CI=true a failed mount fails
// the test; elsewhere (not root, no mount rights) it skips.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	mnt := filepath.Join(dir, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size="+size); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("mount a %s tmpfs: %v", size, err)
		}
		t.Skipf("cannot mount a tmpfs here (%v); CI=true makes this a failure", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, 0); err != nil {
			t.Errorf("unmount %s: %v", mnt, err)
		}
	})
	return mnt
}

// TestFullDiskRefusedBeforeTheFirstChange: a record dir on a 64 KiB tmpfs
// is refused before anything runs.
func TestFullDiskRefusedBeforeTheFirstChange(t *testing.T) {
	l := newFaultLab(t)
	mnt := mountTmpfs(t, "64k")
	marker := filepath.Join(l.dir, "changed")
	rb := filepath.Join(l.dir, "rb.hcl")
	write(t, rb, fmt.Sprintf(`step "shell" "change" { command = "touch %s" }`+"\n", marker), 0o644)
	code, out, errOut := l.prova(t, "apply", rb, "-i", l.inv, "--record-dir", filepath.Join(mnt, "runs"))
	if code != 1 || !strings.Contains(errOut, "needs at least") || !strings.Contains(errOut, "Nothing was changed") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the change ran although the record dir had no room")
	}
}

// TestFullDiskStopsTheRun: the disk fills during the run (the first step
// fills the tmpfs the record is on); the record write that fails stops
// the run before the next change, says so, and exits 1.
func TestFullDiskStopsTheRun(t *testing.T) {
	l := newFaultLab(t)
	mnt := mountTmpfs(t, "16m")
	marker := filepath.Join(l.dir, "second-change")
	rb := filepath.Join(l.dir, "rb.hcl")
	write(t, rb, fmt.Sprintf(`
step "shell" "fill" { command = "head -c 64000000 /dev/zero > %s 2>/dev/null; echo filled up" }
step "shell" "change" { command = "touch %s" }
`, filepath.Join(mnt, "filler"), marker), 0o644)
	code, out, errOut := l.prova(t, "apply", rb, "-i", l.inv, "--record-dir", filepath.Join(mnt, "runs"))
	if code != 1 || !strings.Contains(errOut, "the run record cannot be written") || !strings.Contains(errOut, "no space left on device") ||
		!strings.Contains(errOut, "no further change") {
		t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	if strings.Contains(out, "Apply complete") {
		t.Errorf("a run that lost its evidence said it completed:\n%s", out)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the next change ran after the record write failed")
	}
}

// TestFloodedOutputRecordStaysSmall: a shell step printing two million
// short lines (about 15 MB) and one printing 64 MB in long lines leave a
// record of well under 2 MiB: no per-line events, raw outputs capped and
// compressed. --json leaves the lines out too.
func TestFloodedOutputRecordStaysSmall(t *testing.T) {
	l := newFaultLab(t)
	rb := filepath.Join(l.dir, "rb.hcl")
	write(t, rb, `
step "shell" "lines" { command = "seq 1 2000000" }
step "shell" "bulk" { command = "head -c 64000000 /dev/urandom | od -An -tx1 -w4096 -v" }
`, 0o644)
	root := filepath.Join(l.dir, "runs")
	code, out, errOut := l.prova(t, "apply", rb, "-i", l.inv, "--record-dir", root, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	if strings.Contains(out, `"type":"output"`) {
		t.Error("--json printed output lines without --json-output")
	}
	if !strings.Contains(out, `{"type":"summary",`) {
		t.Error("--json did not end with a summary")
	}
	dir, err := record.Latest(root)
	if err != nil {
		t.Fatal(err)
	}
	var size int64
	_ = filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			size += fi.Size()
		}
		return err
	})
	if size > 2<<20 {
		t.Errorf("record is %d bytes", size)
	}
	ev, err := readGzip(filepath.Join(dir, "events.jsonl.gz")) // the trail, compressed once run.json is whole
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(ev, []byte("\n")); n > 20 {
		t.Errorf("events.jsonl has %d lines for a two-step run", n)
	}
	rec, err := record.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rec.Steps {
		b, err := rec.ReadRaw(s.Hosts["n1"].Raw["stdout"])
		if err != nil || len(b) > record.MaxRawBytes+4096 || len(b) < 1000 {
			t.Errorf("%s stdout kept %d bytes: %v", s.Step, len(b), err)
		}
	}
}

// TestKeepRuns: --keep-runs 2 leaves the two newest records and the
// baseline the newest one names.
func TestKeepRuns(t *testing.T) {
	l := newFaultLab(t)
	rb := filepath.Join(l.dir, "rb.hcl")
	write(t, rb, `step "shell" "x" { command = "echo x" }`+"\n", 0o644)
	root := filepath.Join(l.dir, "runs")
	var ids []string
	for i := range 5 {
		args := []string{"apply", rb, "-i", l.inv, "--record-dir", root}
		if i == 4 {
			args = append(args, "--keep-runs", "2", "--baseline", ids[0])
		}
		if code, _, errOut := l.prova(t, args...); code != 0 {
			t.Fatalf("run %d: exit %d\n%s", i, code, errOut)
		}
		dir, err := record.Latest(root)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, filepath.Base(dir))
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	want := []string{ids[0], ids[3], ids[4]}
	sort.Strings(want)
	if strings.Join(left, " ") != strings.Join(want, " ") {
		t.Errorf("left %v, want %v (the baseline and the two newest)", left, want)
	}
}

func readGzip(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return io.ReadAll(zr)
}
