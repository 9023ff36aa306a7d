package ui

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
)

// BenchmarkConsoleApply is the console's share of the fan-out benchmark's
// run (bench/fanout): 10 steps on N hosts, every host started and ok,
// written to a pipe-like writer that is not a terminal. ns/op and
// allocs/op are per run; divide by 10 x N for a host-step.
func BenchmarkConsoleApply(b *testing.B) {
	for _, n := range []int{10, 50, 200} {
		hosts := make([]string, n)
		for i := range hosts {
			hosts[i] = fmt.Sprintf("h%03d", i)
		}
		steps := make([]string, 10)
		for i := range steps {
			steps[i] = fmt.Sprintf("step%d", i)
		}
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := NewConsole(io.Discard, Options{Color: "never"})
				c.Observe(event.RunStarted{Mode: "apply", Hosts: hosts, Steps: steps})
				for _, s := range steps {
					c.Observe(event.StepStarted{Step: s, Hosts: hosts})
					for _, h := range hosts {
						c.Observe(event.HostStarted{Step: s, Host: h})
					}
					for _, h := range hosts {
						c.Observe(event.HostFinished{Step: s, Host: h, Status: event.OK, Duration: 3 * time.Millisecond})
					}
					c.Observe(event.StepFinished{Step: s})
				}
				c.Observe(event.RunFinished{})
			}
		})
	}
}
