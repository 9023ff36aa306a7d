package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
)

// Profiling of one whole prova process, for docs/performance.md: when set,
// PROVA_CPUPROFILE names a file for a CPU profile, PROVA_MEMPROFILE one
// for a heap profile taken at exit (allocations since start included), and
// PROVA_TRACE one for an execution trace (go tool trace), PROVA_MEMSTATS
// one for the memory at the peak resident set (memstats.go). They are not
// options of the command line: they cost nothing when unset, and the
// profile covers everything from the first line of main to the exit,
// process start-up and flag parsing included.
const (
	envCPUProfile = "PROVA_CPUPROFILE"
	envMemProfile = "PROVA_MEMPROFILE"
	envTrace      = "PROVA_TRACE"
)

// startProfiles starts what the environment asks for and returns the
// function that ends and writes it. A file that cannot be created is an
// error: the caller asked for a profile and would otherwise not get one.
func startProfiles(getenv func(string) string) (stop func() error, err error) {
	setHeapSampling(getenv)
	var stops []func() error
	stop = func() error {
		var first error
		for i := len(stops) - 1; i >= 0; i-- {
			if err := stops[i](); err != nil && first == nil {
				first = err
			}
		}
		return first
	}
	if path := getenv(envCPUProfile); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return stop, fmt.Errorf("%s: %w", envCPUProfile, err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return stop, fmt.Errorf("%s: %w", envCPUProfile, err)
		}
		stops = append(stops, func() error { pprof.StopCPUProfile(); return f.Close() })
	}
	if path := getenv(envTrace); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return stop, fmt.Errorf("%s: %w", envTrace, err)
		}
		if err := trace.Start(f); err != nil {
			f.Close()
			return stop, fmt.Errorf("%s: %w", envTrace, err)
		}
		stops = append(stops, func() error { trace.Stop(); return f.Close() })
	}
	if path := getenv(envMemStats); path != "" {
		st, err := startMemStats(path)
		if err != nil {
			return stop, err
		}
		stops = append(stops, st)
	}
	if path := getenv(envMemProfile); path != "" {
		stops = append(stops, func() error {
			f, err := os.Create(path)
			if err != nil {
				return fmt.Errorf("%s: %w", envMemProfile, err)
			}
			runtime.GC() // the heap profile's in-use figures are as of the last GC
			if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
				f.Close()
				return fmt.Errorf("%s: %w", envMemProfile, err)
			}
			return f.Close()
		})
	}
	return stop, nil
}

// setHeapSampling turns the runtime's heap profiling off unless
// PROVA_MEMPROFILE asks for a heap profile. Linking runtime/pprof (for the
// profiles above) keeps it on at one sample per 512 KiB allocated, and its
// bucket table and buckets were about 1 MiB of a 200-host apply's peak
// resident set (docs/performance.md, "Peak RSS (seventh round)"), for a
// profile nothing reads. Set at the start of main, as runtime.MemProfileRate
// asks: the package initialisers' allocations may have been sampled already.
func setHeapSampling(getenv func(string) string) {
	if getenv(envMemProfile) == "" {
		runtime.MemProfileRate = 0
	}
}
