package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// envMemStats names a file for the memory of one whole prova process at
// its peak resident set, for docs/performance.md (issue 15): while the
// process runs, a goroutine reads the resident set (/proc/self/statm)
// every memStatsEvery and, with it, the Go runtime's memory classes
// (runtime/metrics); at exit it writes the sample whose resident set was
// the largest, one "name value" line per figure. It costs nothing when
// unset and a little CPU when set (one read of each every 10 ms): use it
// to see what the peak is made of, not while measuring CPU.
const envMemStats = "PROVA_MEMSTATS"

const memStatsEvery = 10 * time.Millisecond

// memClasses are the runtime/metrics a sample keeps, in the order written.
var memClasses = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/released:bytes",
	"/memory/classes/heap/stacks:bytes",
	"/memory/classes/os-stacks:bytes",
	"/memory/classes/metadata/mspan/inuse:bytes",
	"/memory/classes/metadata/mcache/inuse:bytes",
	"/memory/classes/metadata/other:bytes",
	"/memory/classes/other:bytes",
	"/memory/classes/profiling/buckets:bytes",
	"/memory/classes/total:bytes",
	"/gc/heap/live:bytes",
	"/gc/heap/goal:bytes",
	"/gc/cycles/total:gc-cycles",
	"/sched/goroutines:goroutines",
}

// memPeak samples the process until stop and keeps the sample of the
// largest resident set.
type memPeak struct {
	statm    string // /proc/self/statm
	pageSize int64

	mu      sync.Mutex
	rss     int64 // bytes, of the kept sample
	at      time.Duration
	samples []metrics.Sample // the kept sample's runtime figures
}

// startMemStats starts sampling; the returned function stops it and
// writes the peak to path.
func startMemStats(path string) (stop func() error, err error) {
	p := &memPeak{statm: "/proc/self/statm", pageSize: int64(os.Getpagesize())}
	if _, err := p.resident(); err != nil {
		return nil, fmt.Errorf("%s: %w", envMemStats, err)
	}
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(memStatsEvery)
		defer t.Stop()
		for {
			p.sample(time.Since(start))
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() error {
		close(done)
		wg.Wait()
		p.sample(time.Since(start))
		if err := os.WriteFile(path, p.report(), 0o644); err != nil {
			return fmt.Errorf("%s: %w", envMemStats, err)
		}
		return nil
	}, nil
}

// resident is the process's resident set in bytes: the second field of
// /proc/self/statm, in pages.
func (p *memPeak) resident() (int64, error) {
	b, err := os.ReadFile(p.statm)
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, fmt.Errorf("%s: %q has no resident field", p.statm, bytes.TrimSpace(b))
	}
	n, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: resident field %q: %w", p.statm, f[1], err)
	}
	return n * p.pageSize, nil
}

// sample reads the resident set and, when it is the largest so far, the
// runtime's figures with it.
func (p *memPeak) sample(at time.Duration) {
	rss, err := p.resident()
	if err != nil {
		return // the file was readable at start; a failed read keeps the last peak
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if rss <= p.rss && p.samples != nil {
		return
	}
	s := make([]metrics.Sample, len(memClasses))
	for i, name := range memClasses {
		s[i].Name = name
	}
	metrics.Read(s)
	p.rss, p.at, p.samples = rss, at, s
}

// report is the kept sample as "name value" lines.
func (p *memPeak) report() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b bytes.Buffer
	fmt.Fprintf(&b, "rss:bytes %d\n", p.rss)
	fmt.Fprintf(&b, "at:seconds %.3f\n", p.at.Seconds())
	for _, s := range p.samples {
		switch s.Value.Kind() {
		case metrics.KindUint64:
			fmt.Fprintf(&b, "%s %d\n", s.Name, s.Value.Uint64())
		default:
			fmt.Fprintf(&b, "%s unsupported\n", s.Name)
		}
	}
	return b.Bytes()
}
