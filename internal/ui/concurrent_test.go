package ui

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// TestConcurrentObservers feeds one console (verbose, terminal and not)
// and one JSON observer from many goroutines; run under -race. Every line
// must come out whole, exactly once.
func TestConcurrentObservers(t *testing.T) {
	const nHosts, nLines = 16, 50
	var hs []string
	for i := range nHosts {
		hs = append(hs, fmt.Sprintf("node%02d", i))
	}
	for _, term := range []bool{false, true} {
		t.Run(fmt.Sprintf("terminal=%v", term), func(t *testing.T) {
			var cb, jb bytes.Buffer
			red := redact.New(secret)
			con := NewConsole(&cb, Options{Color: "always", Verbose: true, IsTerminal: term, Redact: red})
			js := NewJSON(&jb, red).WithOutput(true)
			obs := event.Multi{con, js}
			obs.Observe(event.RunStarted{Mode: "apply", Hosts: hs, Steps: []string{"s"}})
			obs.Observe(event.StepStarted{Step: "s", Hosts: hs})
			var wg sync.WaitGroup
			for _, h := range hs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range nLines {
						obs.Observe(event.Output{Step: "s", Host: h, Stream: "stdout", Line: fmt.Sprintf("line %d of %s %s", i, h, secret)})
						obs.Observe(event.Progress{Step: "s", Host: h, Elapsed: float64(i)})
					}
					obs.Observe(event.HostFinished{Step: "s", Host: h, Status: event.OK})
				}()
			}
			wg.Wait()
			obs.Observe(event.RunFinished{Mode: "apply", Hosts: map[string]event.Tally{}})
			if err := con.Close(); err != nil {
				t.Fatal(err)
			}
			out := stripANSI(cb.String())
			for _, h := range hs {
				for i := range nLines {
					l := fmt.Sprintf("%s | line %d of %s %s\n", h, i, h, redact.Placeholder)
					if n := strings.Count(out, l); n != 1 {
						t.Fatalf("%q appears %d times", l, n)
					}
				}
			}
			if strings.Contains(cb.String()+jb.String(), secret) {
				t.Error("secret leaked")
			}
			want := 2 + nHosts*(2*nLines+1) + 2 // run_finished and summary
			if n := strings.Count(jb.String(), "\n"); n != want {
				t.Errorf("%d JSON lines, want %d", n, want)
			}
		})
	}
}
