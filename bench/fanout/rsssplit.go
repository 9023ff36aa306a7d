package benchfanout

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"time"
)

// RSSSplit is what the resident set of a run's largest process was made
// of when it was at its largest among the samples: anonymous memory (heap,
// stacks, the runtime's own) and pages of mapped files (for a Go program,
// almost all its own binary: the kernel maps the 64 KiB around every page
// the program touches, so a large binary holds megabytes of text and
// read-only data that it reads once). The kernel's peak (ru_maxrss, Usage's
// MaxRSS) is exact; this split comes from samples, so its total can be a
// little below that peak.
type RSSSplit struct {
	// RSS, Anon, File and Shmem are VmRSS, RssAnon, RssFile and RssShmem
	// of /proc/PID/status at the sample where VmRSS was largest, in bytes.
	RSS, Anon, File, Shmem int64
	// At is when that sample was taken, as a fraction of the run's wall
	// time (0 at the start, 1 at the end).
	At float64
	// MaxAnon is the largest RssAnon of any sample, in bytes.
	MaxAnon int64
	// Samples is how many samples were taken.
	Samples int
}

// SplitEvery is how often Measure samples the resident set's split.
const SplitEvery = 5 * time.Millisecond

// splitSampled, when set (by tests), is called after every sample that
// found a live process.
var splitSampled func(RSSSplit)

// sampleSplit samples the largest process of pid's tree every SplitEvery
// until stop is closed, and returns the split at the largest sample. A
// tool run under reap is reap's child: the tree walk finds it.
func sampleSplit(pid int, start time.Time, stop <-chan struct{}) (RSSSplit, time.Duration) {
	t := time.NewTicker(SplitEvery)
	defer t.Stop()
	var s RSSSplit
	var at time.Duration
	for {
		if st, ok := largestStatus(pid); ok {
			s.Samples++
			s.MaxAnon = max(s.MaxAnon, st.Anon)
			if st.RSS > s.RSS {
				s.RSS, s.Anon, s.File, s.Shmem = st.RSS, st.Anon, st.File, st.Shmem
				at = time.Since(start)
			}
			if splitSampled != nil {
				splitSampled(st)
			}
		}
		select {
		case <-stop:
			return s, at
		case <-t.C:
		}
	}
}

// largestStatus returns the status split of the process of pid's tree
// with the largest VmRSS. A zombie (exited, not yet reaped) has no VmRSS
// line and is not counted.
func largestStatus(pid int) (RSSSplit, bool) {
	var best RSSSplit
	found := false
	walkTree(pid, func(p int) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/status")
		if err == nil {
			if st := parseStatus(b); st.RSS > 0 && (st.RSS > best.RSS || !found) {
				best, found = st, true
			}
		}
	})
	return best, found
}

// parseStatus reads VmRSS, RssAnon, RssFile and RssShmem (kB) of a
// /proc/PID/status text, in bytes; a missing line reads as 0.
func parseStatus(b []byte) RSSSplit {
	var s RSSSplit
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, rest, ok := bytes.Cut(sc.Bytes(), []byte(":"))
		if !ok {
			continue
		}
		var dst *int64
		switch string(name) {
		case "VmRSS":
			dst = &s.RSS
		case "RssAnon":
			dst = &s.Anon
		case "RssFile":
			dst = &s.File
		case "RssShmem":
			dst = &s.Shmem
		default:
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 2 && string(f[1]) == "kB" {
			if kb, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
				*dst = kb * 1024
			}
		}
	}
	return s
}
