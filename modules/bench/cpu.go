package bench

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/mpstat"
)

// cpuMargin is how many seconds mpstat may run past the benchmark's
// runtime before it ends by itself (it is stopped as soon as the benchmark
// ends; the count only bounds it if that stop is lost).
const cpuMargin = 30

// cpuResult is the cpu output: all-CPU averages in percent, their kernel
// sum (%soft + %sys + %irq: where nvme-rdma completes I/O in softirq and
// nvme-tcp does much of its receive work in kworkers, %sys), busy cores
// (excluding %iowait) and the hottest core's busy percentage.
type cpuResult struct {
	SoftPct    float64 `cty:"soft_pct"`
	SysPct     float64 `cty:"sys_pct"`
	IRQPct     float64 `cty:"irq_pct"`
	UsrPct     float64 `cty:"usr_pct"`
	IOWaitPct  float64 `cty:"iowait_pct"`
	KernelPct  float64 `cty:"kernel_pct"`
	BusyCores  float64 `cty:"busy_cores"`
	HottestPct float64 `cty:"hottest_core_pct"`
	CPUs       int     `cty:"cpus"`
	Samples    int     `cty:"samples"`
}

// sampler is mpstat running in its own session on the benchmark's host.
type sampler struct {
	cmd    string
	cancel context.CancelFunc
	done   chan struct{}
	first  chan struct{} // closed when mpstat printed something
	once   sync.Once

	mu       sync.Mutex
	out, err bytes.Buffer
	rc       int
	runErr   error
}

func (s *sampler) Write(p []byte) (int, error) {
	s.once.Do(func() { close(s.first) })
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

type stderrOf struct{ s *sampler }

func (w stderrOf) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.err.Write(p)
}

// mpstatCommand samples every CPU each second, count times.
func mpstatCommand(count int) string {
	return "LC_ALL=C mpstat -P ALL 1 " + strconv.Itoa(count)
}

// cpuStartWait bounds how long the benchmark waits for mpstat's banner.
const cpuStartWait = 5 * time.Second

// startCPU starts mpstat for at most count seconds and returns once it
// printed its banner (so its first sample covers the benchmark's start),
// ended, or cpuStartWait passed.
func startCPU(ctx context.Context, h module.Host, count int) *sampler {
	cctx, cancel := context.WithCancel(ctx)
	s := &sampler{cmd: mpstatCommand(count), cancel: cancel, done: make(chan struct{}), first: make(chan struct{})}
	go func() {
		defer close(s.done)
		rc, err := h.Run(cctx, s.cmd, nil, s, stderrOf{s})
		s.mu.Lock()
		s.rc, s.runErr = rc, err
		s.mu.Unlock()
	}()
	t := time.NewTimer(cpuStartWait)
	defer t.Stop()
	select {
	case <-s.first:
	case <-s.done:
	case <-ctx.Done():
	case <-t.C:
	}
	return s
}

// stop ends mpstat and summarises what it printed. The result is nil with
// a note when nothing usable was captured; that is not an error.
func (s *sampler) stop(host string) (*cpuResult, string, string) {
	s.cancel()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	out, errText := s.out.String(), s.err.String()
	evidence := out + errText
	if s.runErr == nil && s.rc != 0 && strings.TrimSpace(out) == "" {
		if s.rc == 127 || strings.Contains(errText, "not found") {
			return nil, evidence, "cpu: mpstat (sysstat) is not installed on " + host
		}
		return nil, evidence, fmt.Sprintf("cpu: mpstat on %s exited %d: %s", host, s.rc, cmp.Or(module.LastLine(errText), "(no output)"))
	}
	r, err := mpstat.Parse([]byte(out))
	if err != nil {
		return nil, evidence, fmt.Sprintf("cpu: on %s: %v", host, err)
	}
	sum := r.Summary()
	if sum.Intervals == 0 && sum.Source != "average" {
		return nil, evidence, "cpu: mpstat on " + host + " printed no sample before the benchmark ended"
	}
	c := cpuOf(r)
	return &c, evidence, ""
}

// cpuOf condenses mpstat's output into the cpu output.
func cpuOf(r *mpstat.Result) cpuResult {
	sum := r.Summary()
	a := sum.All
	cpus := len(sum.PerCPU)
	if cpus == 0 {
		cpus = r.Host.CPUs
	}
	return cpuResult{SoftPct: round(a.Soft), SysPct: round(a.Sys), IRQPct: round(a.IRQ), UsrPct: round(a.Usr),
		IOWaitPct: round(a.IOWait), KernelPct: round(a.Soft + a.Sys + a.IRQ), BusyCores: round(sum.BusyCores),
		HottestPct: round(sum.HottestPct), CPUs: cpus, Samples: sum.Intervals}
}
