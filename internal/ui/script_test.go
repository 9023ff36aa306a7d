package ui

import (
	"testing"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/provadev/prova/engine/event"
	"github.com/zclconf/go-cty/cty"
)

// secret appears in output, results, evidence and diagnostics of the
// scripted runs; it must never reach a writer.
const secret = "hunter2-s3cr3t"

const runbookName = "runbooks/gpfs-verbs-rdma.hcl"

const runbookSrc = `variable "max_lat_us" {
  default = 2.5
}

step "assert" "verbs_up" {
  condition     = step.verbsconn.check.connections >= length(group.nsd) && step.bench.lat.lat_avg_us < var.max_lat_us && var.token != ""
  error_message = "only ${step.verbsconn.check.connections} verbs connections"
}
`

var hosts = []string{"gpfs01", "gpfs02", "gpfs-nsd03", "gpfs04"}

// assertionDiags evaluates the assert step's condition the way the assert
// module does and returns the diagnostic of its failure, carrying the
// expression and its context so the values are shown.
func assertionDiags(t testing.TB) hcl.Diagnostics {
	t.Helper()
	f, diags := hclsyntax.ParseConfig([]byte(runbookSrc), runbookName, hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	body := f.Body.(*hclsyntax.Body)
	expr := body.Blocks[1].Body.Attributes["condition"].Expr
	ctx := &hcl.EvalContext{
		Variables: map[string]cty.Value{
			"step": cty.ObjectVal(map[string]cty.Value{
				"verbsconn": cty.ObjectVal(map[string]cty.Value{
					"check": cty.ObjectVal(map[string]cty.Value{"connections": cty.NumberIntVal(1)}),
				}),
				"bench": cty.ObjectVal(map[string]cty.Value{
					"lat": cty.ObjectVal(map[string]cty.Value{"lat_avg_us": cty.NumberFloatVal(3.1)}),
				}),
			}),
			"group": cty.ObjectVal(map[string]cty.Value{
				"nsd": cty.ListVal([]cty.Value{cty.StringVal("gpfs01"), cty.StringVal("gpfs02")}),
			}),
			"var": cty.ObjectVal(map[string]cty.Value{
				"max_lat_us": cty.NumberFloatVal(2.5),
				"token":      cty.StringVal(secret),
			}),
		},
	}
	return hcl.Diagnostics{{
		Severity:    hcl.DiagError,
		Summary:     "Assertion failed",
		Detail:      "only 1 verbs connections (token " + secret + ")",
		Subject:     expr.Range().Ptr(),
		Expression:  expr,
		EvalContext: ctx,
	}}
}

func sources() map[string][]byte { return map[string][]byte{runbookName: []byte(runbookSrc)} }

var t0 = time.Date(2026, 11, 30, 2, 15, 0, 0, time.UTC)

func applyEvents(t testing.TB) []event.Event {
	return []event.Event{
		event.RunStarted{RunID: "20261130T021500Z-a1b2c3", Mode: "apply", Runbook: runbookName, Hosts: hosts,
			Steps: []string{"mmchconfig.verbs", "restart.gpfs", "assert.verbs_up"}, Time: t0,
			FailRule: "abort when more than 25% of hosts fail"},
		event.Warning{Message: "host key of gpfs04 accepted and saved (--ssh-accept-new)"},
		event.StepStarted{Step: "mmchconfig.verbs", Module: "mmchconfig", Name: "verbs", Hosts: hosts},
		event.HostStarted{Step: "mmchconfig.verbs", Host: "gpfs01"},
		event.HostStarted{Step: "mmchconfig.verbs", Host: "gpfs02"},
		event.Output{Step: "mmchconfig.verbs", Host: "gpfs01", Stream: "stdout", Line: "mmchconfig: Command successfully completed"},
		event.Output{Step: "mmchconfig.verbs", Host: "gpfs02", Stream: "stdout", Line: "mmchconfig: checking nodes"},
		event.Output{Step: "mmchconfig.verbs", Host: "gpfs02", Stream: "stderr", Line: "mmchconfig: authentication with " + secret + " refused"},
		event.Output{Step: "mmchconfig.verbs", Host: "gpfs02", Stream: "stderr", Line: "mmchconfig: \x1b[31mCommand failed.\x1b[0m Examine previous error messages\r"},
		event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs01", Status: event.Changed, Duration: 1200 * time.Millisecond,
			Result: map[string]any{"changed": true, "rc": 0, "stdout": "mmchconfig: Command successfully completed"}},
		event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs02", Status: event.Failed, Message: "mmchconfig exited with status 1",
			Duration: 800 * time.Millisecond, Result: map[string]any{"failed": true, "rc": 1, "stderr": "authentication with " + secret + " refused"}},
		event.HostDropped{Step: "mmchconfig.verbs", Host: "gpfs02", Reason: "step failed"},
		event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs-nsd03", Status: event.Unreachable,
			Message: "dial tcp 127.0.0.1:2203: connect: connection refused"},
		event.HostDropped{Step: "mmchconfig.verbs", Host: "gpfs-nsd03", Reason: "unreachable"},
		event.HostFinished{Step: "mmchconfig.verbs", Host: "gpfs04", Status: event.OK, Duration: 300 * time.Millisecond},
		event.StepFinished{Step: "mmchconfig.verbs", Duration: 1300 * time.Millisecond},

		event.StepStarted{Step: "restart.gpfs", Module: "restart", Name: "gpfs", Hosts: []string{"gpfs01"}, Batch: 1},
		event.Progress{Step: "restart.gpfs", Host: "gpfs01", Message: "waiting for GPFS active", Elapsed: 2, Remaining: 88},
		event.Progress{Step: "restart.gpfs", Host: "gpfs01", Message: "waiting for GPFS active", Elapsed: 7, Remaining: 83},
		event.Progress{Step: "restart.gpfs", Host: "gpfs01", Message: "waiting for GPFS active", Elapsed: 12.5, Remaining: 77.5},
		event.Retry{Step: "restart.gpfs", Host: "gpfs01", Attempt: 1, Delay: 5 * time.Second, Reason: "GPFS state is arbitrating"},
		event.Progress{Step: "restart.gpfs", Host: "gpfs01", Message: "waiting for GPFS active", Elapsed: 21},
		event.Progress{Step: "restart.gpfs", Host: "gpfs01", Message: "waiting for GPFS active", Elapsed: 23},
		event.HostFinished{Step: "restart.gpfs", Host: "gpfs01", Status: event.Changed, Duration: 65 * time.Second},
		event.StepStarted{Step: "restart.gpfs", Module: "restart", Name: "gpfs", Hosts: []string{"gpfs04"}, Batch: 2},
		event.HostFinished{Step: "restart.gpfs", Host: "gpfs04", Status: event.Skipped, Message: "when = false"},
		event.StepFinished{Step: "restart.gpfs", Duration: 66 * time.Second},

		event.StepStarted{Step: "assert.verbs_up", Module: "assert", Name: "verbs_up", Hosts: []string{"gpfs01", "gpfs04"}},
		event.HostFinished{Step: "assert.verbs_up", Host: "gpfs01", Status: event.Failed, Severity: "fail",
			Message:     "only 1 verbs connections",
			Diagnostics: assertionDiags(t),
			Checks: []event.Check{
				{Name: "connections", Measured: "1", Threshold: ">= 2", Verdict: "fail", Message: "only 1 verbs connections"},
				{Name: "lat_avg_us", Measured: "3.1", Threshold: "< 2.5", Verdict: "fail"},
				{Name: "token", Measured: secret, Verdict: "pass"},
			}},
		event.HostFinished{Step: "assert.verbs_up", Host: "gpfs04", Status: event.Warned, Severity: "warn",
			Message: "latency above target", Checks: []event.Check{{Name: "lat_avg_us", Measured: "2.7", Threshold: "< 2.5", Verdict: "warn"}}},
		event.Aborted{Reason: "max_fail_percentage exceeded: 2 of 4 hosts failed (50% > 25%)", HalfDone: []string{"assert.verbs_up"}},
		event.RunFinished{RunID: "20261130T021500Z-a1b2c3", Mode: "apply", Failed: true, Duration: 68500 * time.Millisecond, Time: t0.Add(68 * time.Second),
			Hosts: map[string]event.Tally{
				"gpfs01":     {Changed: 2, Failed: 1},
				"gpfs02":     {Failed: 1},
				"gpfs-nsd03": {Unreachable: 1},
				"gpfs04":     {OK: 1, Skipped: 1, Warned: 1},
			}},
	}
}

func planEvents() []event.Event {
	return []event.Event{
		event.RunStarted{RunID: "20261130T021000Z-0f0e0d", Mode: "plan", Runbook: runbookName, Hosts: hosts,
			Steps: []string{"mmchconfig.verbs", "restart.gpfs", "assert.verbs_up"}, Time: t0,
			FailRule: "abort when more than 25% of hosts fail"},
		event.StepStarted{Step: "mmchconfig.verbs", Module: "mmchconfig", Name: "verbs", Hosts: hosts},
		event.PlannedHost{Step: "mmchconfig.verbs", Host: "gpfs02", Action: "no change", Symbol: "="},
		event.PlannedHost{Step: "restart.gpfs", Host: "gpfs01", Action: "known after apply", Symbol: "?"},
		event.PlannedHost{Step: "mmchconfig.verbs", Host: "gpfs01", Action: "change", Symbol: "~",
			Summary: "verbsRdma: disable -> enable",
			Changes: []event.Change{{Name: "verbsRdma", From: "disable", To: "enable"}, {Name: "verbsPorts", From: "", To: "mlx5_0/1"}}},
		event.PlannedHost{Step: "mmchconfig.verbs", Host: "gpfs04", Action: "skip", Symbol: "-"},
		event.PlannedHost{Step: "mmchconfig.verbs", Host: "gpfs-nsd03", Action: "known after apply", Symbol: "?"},
		event.StepFinished{Step: "mmchconfig.verbs"},
		event.PlannedHost{Step: "restart.gpfs", Host: "gpfs02", Action: "no change", Symbol: "="},
		event.PlannedHost{Step: "assert.verbs_up", Host: "gpfs01", Action: "known after apply", Symbol: "?", Summary: "condition depends on step.bench.lat"},
		event.PlannedHost{Step: "assert.verbs_up", Host: "gpfs04", Action: event.PlanWouldFail, Symbol: "!", Summary: "gpfs04: MLNX_OFED is not installed",
			Diagnostics: hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Assertion failed", Detail: "gpfs04: MLNX_OFED is not installed"}}},
		event.PlannedHost{Step: "bench.wipe", Host: "gpfs01", Action: event.PlanWouldFail, Symbol: "!",
			Summary:     "refused: fio write writes to the raw block device /dev/nvme1n1; the step says destructive = true, but --allow-destructive does not name gpfs01",
			Destructive: "fio write writes to the raw block device /dev/nvme1n1"},
		event.RunFinished{RunID: "20261130T021000Z-0f0e0d", Mode: "plan", Changes: 1, WouldFail: 2, Failed: true, Duration: 4 * time.Second, Time: t0.Add(4 * time.Second)},
	}
}
