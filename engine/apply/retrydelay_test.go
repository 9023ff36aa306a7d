package apply

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hcldec"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/engine/module"
)

// payloadModule returns 1 MiB of stdout, a new string each call, and
// sends on payloadReleased once that string is no longer reachable.
type payloadModule struct{}

// payloadReleased is buffered so that a cleanup never blocks.
var payloadReleased = make(chan struct{}, 64)

func (payloadModule) ID() string                         { return "payload" }
func (payloadModule) Spec() hcldec.Spec                  { return &hcldec.ObjectSpec{} }
func (payloadModule) Outputs() cty.Type                  { return cty.EmptyObject }
func (payloadModule) Validate(cty.Value) hcl.Diagnostics { return nil }
func (payloadModule) Plan(context.Context, module.PlanRequest) (module.PlanResponse, error) {
	return module.PlanResponse{Action: module.NoOp}, nil
}
func (payloadModule) Apply(context.Context, module.ApplyRequest) (module.ApplyResponse, error) {
	out := strings.Repeat("x", 1<<20)
	runtime.AddCleanup(unsafe.StringData(out), func(ch chan<- struct{}) { ch <- struct{}{} }, payloadReleased)
	return module.ApplyResponse{Stdout: out, Outputs: cty.EmptyObjectVal}, nil
}

// A host waiting out a retry delay holds no fork, so at 1,000 nodes most
// of a step's hosts can be waiting at once; what the failed attempt
// returned must not stay reachable meanwhile. When it did (the outcome
// passed by pointer and live across the delay), the 1,000-node verify's
// verbs_conn waits held every host's mmfsadm output: a peak RSS of 859 MB
// against 509 (docs/performance.md, fifteenth round).
func TestRetryDelayDropsTheAttemptsOutput(t *testing.T) {
	for len(payloadReleased) > 0 {
		<-payloadReleased
	}
	s := newRun(t, `step "payload" "settle" {
  until   = false
  retries = 1
  delay   = "1h"
}`, []string{"n1"}, ModeApply)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan *Outcome, 1)
	go func() {
		out, _ := s.r.Run(ctx)
		done <- out
	}()
	// Only the first attempt ran, and the host now waits an hour: its
	// output can become unreachable only by being dropped before the wait.
	deadline := time.Now().Add(20 * time.Second)
	released := false
	for !released && time.Now().Before(deadline) {
		runtime.GC()
		select {
		case <-payloadReleased:
			released = true
		case out := <-done:
			t.Fatalf("the run ended before its retry delay: %+v", out)
		case <-time.After(10 * time.Millisecond):
		}
	}
	if !released {
		t.Fatal("the first attempt's 1 MiB of stdout is still reachable while the host waits out its retry delay")
	}
	cancel()
	<-done
	hf := s.ev.finished()["payload.settle@n1"]
	if hf.Status != event.Failed || hf.Message != "interrupted during retry delay" {
		t.Errorf("the host ended %s %q, want failed: interrupted during retry delay", hf.Status, hf.Message)
	}
}
