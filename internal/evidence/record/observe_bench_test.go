package record

import (
	"runtime"
	"testing"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/redact"
)

// BenchmarkObserveFanout: the record of the fan-out's workload (10 shell
// steps of `true` on 200 hosts: each host-step started, then finished
// with the shell's result), observed and closed. The events are made
// once, before the loop: B/op and allocs/op are the record's (Close
// included). held-B/op is the live heap the Writer holds once every
// host-step is observed, before Close: what the record adds to the peak
// of a 200-host run.
func BenchmarkObserveFanout(b *testing.B) {
	const steps, hosts = 10, 200
	names, stepNames := fanoutNames(steps, hosts)
	events := []event.Event{event.RunStarted{Steps: stepNames, Hosts: names, Mode: "apply"}}
	for _, st := range stepNames {
		events = append(events, event.StepStarted{Step: st, Module: "shell"})
		for _, h := range names {
			events = append(events, event.HostStarted{Step: st, Host: h})
		}
		for _, h := range names {
			events = append(events, event.HostFinished{Step: st, Host: h, Status: event.Changed, Duration: 12345678 * time.Nanosecond,
				Result: map[string]any{"changed": true, "failed": false, "skipped": false, "rc": 0.0,
					"stdout": "", "stderr": "", "message": "", "host": h}})
		}
		events = append(events, event.StepFinished{Step: st, Duration: time.Second})
	}
	b.ReportAllocs()
	var held uint64
	// One Writer per call, so that the last one is gone from the stack
	// when the next call measures its start.
	run := func() {
		b.StopTimer()
		var before, after runtime.MemStats
		// Twice: the first GC moves the pools' objects (the trail's
		// compressor, from the last Close) to their victim caches, the
		// second frees them, so that they are not counted as freed
		// below.
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		meta := Meta{Mode: "apply", Runbook: "fanout.hcl", Hosts: names, Started: time.Now()}
		w, err := Create(b.TempDir(), meta, redact.New())
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range events {
			w.Observe(e)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		if after.HeapAlloc > before.HeapAlloc {
			held += after.HeapAlloc - before.HeapAlloc
		}
		b.StartTimer()
		if err := w.Close(""); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(held)/float64(b.N), "held-B/op")
}
