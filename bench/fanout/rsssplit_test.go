package benchfanout

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
)

// holdEnv makes this test binary, run as a child, allocate and touch that
// many MiB, print "ready" and wait for its stdin to end.
const holdEnv = "BENCHFANOUT_TEST_HOLD_MIB"

func init() {
	v := os.Getenv(holdEnv)
	if v == "" {
		return
	}
	mib, err := strconv.Atoi(v)
	if err != nil {
		os.Exit(2)
	}
	buf := make([]byte, mib<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadByte() // until the test closes stdin
	if buf[len(buf)-1] == 0 && buf[1] == 0 {
		os.Exit(3) // keeps buf alive up to here
	}
	os.Exit(0)
}

func TestSplitSeesAChildsAnonymousMemory(t *testing.T) {
	const hold = 48
	sh := exec.Command("sh", "-c", `exec "$0" -test.run '^$'`, os.Args[0])
	sh.Env = append(os.Environ(), holdEnv+"="+strconv.Itoa(hold))
	in, err := sh.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	defer sh.Wait()
	defer in.Close()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("child said %q, %v", line, err)
	}
	st, ok := largestStatus(sh.Process.Pid)
	if !ok {
		t.Fatal("no status read")
	}
	if st.Anon < hold<<20 {
		t.Errorf("anonymous %d bytes, want at least the %d MiB the child touched", st.Anon, hold)
	}
	if st.File <= 0 {
		t.Errorf("file-backed %d bytes: a running binary maps its own pages", st.File)
	}
	if sum := st.Anon + st.File + st.Shmem; sum != st.RSS {
		t.Errorf("anon %d + file %d + shmem %d = %d, VmRSS %d", st.Anon, st.File, st.Shmem, sum, st.RSS)
	}
}

func TestMeasureSamplesTheSplit(t *testing.T) {
	// The child lives until the sampler has seen it once: its stdin is
	// closed from the sampler's hook, so the run ends after one sample or
	// more whatever the scheduling.
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), holdEnv+"=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	splitSampled = func(RSSSplit) { once.Do(func() { in.Close() }) }
	defer func() { splitSampled = nil }()
	u, err := Measure(context.Background(), cmd, false)
	if err != nil {
		t.Fatal(err)
	}
	if u.Split.Samples < 1 || u.Split.RSS <= 0 || u.Split.At < 0 || u.Split.At > 1 {
		t.Errorf("split %+v: want at least one sample of the live child, within the run", u.Split)
	}
	if u.Split.Anon+u.Split.File+u.Split.Shmem != u.Split.RSS {
		t.Errorf("split %+v: the parts do not add up to VmRSS", u.Split)
	}
	splitSampled = nil
	u, err = Measure(context.Background(), exec.Command("sh", "-c", "exit 0"), true)
	if err != nil {
		t.Fatal(err)
	}
	if u.Split.Samples != 0 {
		t.Errorf("a tree-sampled run has a split: %+v", u.Split)
	}
}

func TestParseStatus(t *testing.T) {
	// The lines as proc(5) documents them (tab after the colon, kB); the
	// values are made up.
	text := "Name:\tprova\nVmPeak:\t 1262372 kB\nVmHWM:\t   45124 kB\nVmRSS:\t   43968 kB\nRssAnon:\t   31240 kB\nRssFile:\t   12728 kB\nRssShmem:\t       0 kB\nThreads:\t8\n"
	got := parseStatus([]byte(text))
	want := RSSSplit{RSS: 43968 << 10, Anon: 31240 << 10, File: 12728 << 10}
	if got != want {
		t.Errorf("parseStatus = %+v, want %+v", got, want)
	}
	if z := parseStatus([]byte("Name:\tx\nVmRSS:\tbad kB\n")); z != (RSSSplit{}) {
		t.Errorf("a bad line read as %+v", z)
	}
}

func TestMeanKeepsTheLargestSplit(t *testing.T) {
	us := []Usage{
		{Split: RSSSplit{RSS: 40, Anon: 30, File: 10, At: 0.5, MaxAnon: 35, Samples: 3}},
		{Split: RSSSplit{RSS: 44, Anon: 28, File: 16, At: 0.9, MaxAnon: 29, Samples: 4}},
	}
	got := Mean(us).Split
	want := RSSSplit{RSS: 44, Anon: 28, File: 16, At: 0.9, MaxAnon: 35, Samples: 7}
	if got != want {
		t.Errorf("Mean's split = %+v, want %+v", got, want)
	}
}
