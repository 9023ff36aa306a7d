package record

import (
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/wire"
)

// Version is the format version of run.json; Load refuses newer ones.
// Version 1 kept raw outputs as raw/<step>/<host>.<name>.txt and every
// event, per-line output included, in events.jsonl; version 2 keeps raw
// outputs once per distinct content, gzip-compressed, as
// raw/sha256/<hex>.gz, and leaves output and progress events out of
// events.jsonl; version 3 writes run.json without indentation and, once
// run.json holds the whole record, compresses events.jsonl into
// events.jsonl.gz (a run that never closed its record leaves events.jsonl
// plain, to be rebuilt from); version 4 keeps raw outputs zstd-compressed
// as raw/sha256/<hex>.zst, each later output of a step and output name
// compressed against the first one (its reference, which it names). Load
// reads all four.
const Version = 4

const (
	runFile    = "run.json"
	eventsFile = "events.jsonl"
	// eventsGz is events.jsonl once the record is closed.
	eventsGz = eventsFile + ".gz"
	rawDir   = "raw"
)

// Run statuses. Close accepts any status; these are the ones prova uses.
const (
	StatusRunning     = "running" // written at Create; a crash leaves it
	StatusOK          = "ok"
	StatusFailed      = "failed"
	StatusAborted     = "aborted"
	StatusInterrupted = "interrupted"
	// StatusIncomplete is what Load reports for a record whose run never
	// closed it (prova was killed, or is still running): rebuilt from
	// events.jsonl, it holds what happened up to the last event written.
	StatusIncomplete = "incomplete"
)

// Unfinished is the status of a host that started a step and never
// finished it (the run was interrupted or aborted meanwhile).
const Unfinished event.Status = "unfinished"

// Meta describes the run; the caller fills it before Create.
type Meta struct {
	RunID         string `json:"run_id"`
	Mode          string `json:"mode"`
	Runbook       string `json:"runbook"`
	RunbookHash   string `json:"runbook_hash,omitempty"`
	Inventory     string `json:"inventory,omitempty"`
	InventoryHash string `json:"inventory_hash,omitempty"`
	// InventorySources say where hosts came from besides the files: one
	// line per GPFS cluster asked (cluster, admin node, node count, when
	// the answer was taken).
	InventorySources []string  `json:"inventory_sources,omitempty"`
	ProvaVersion     string    `json:"prova_version,omitempty"`
	Started          time.Time `json:"started"`
	// Vars are the variable values, already redacted by the caller
	// (Create redacts them once more).
	Vars     map[string]any `json:"vars,omitempty"`
	Hosts    []string       `json:"hosts"`
	Baseline string         `json:"baseline,omitempty"` // run ID or directory
	// PID is the prova process that wrote the record.
	PID int `json:"pid,omitempty"`
}

// Record is the content of run.json.
type Record struct {
	Version    int                    `json:"version"`
	Meta       Meta                   `json:"meta"`
	Status     string                 `json:"status"`
	Finished   time.Time              `json:"finished,omitzero"`
	DurationS  float64                `json:"duration_s,omitempty"`
	Aborted    *Abort                 `json:"aborted,omitempty"`
	Tallies    map[string]event.Tally `json:"tallies"`
	Steps      []Step                 `json:"steps"`
	Assertions []Assertion            `json:"assertions"`
	Dropped    []Dropped              `json:"dropped,omitempty"`
	Warnings   []event.Warning        `json:"warnings,omitempty"`
	// PlannedSteps are the steps the run meant to run, in order.
	PlannedSteps []string `json:"planned_steps,omitempty"`
	// Incomplete is set by Load when the run never closed its record;
	// IncompleteReason says why the record cannot be trusted as whole.
	Incomplete       bool   `json:"incomplete,omitempty"`
	IncompleteReason string `json:"incomplete_reason,omitempty"`

	// Dir is the record's directory, set by Load.
	Dir string `json:"-"`
}

// Abort says why a run stopped early and which steps it left half-done:
// started on some hosts, not finished on all.
type Abort struct {
	Reason   string   `json:"reason"`
	HalfDone []string `json:"half_done,omitempty"`
}

// Step is one step's outcome on every host it ran on.
type Step struct {
	Step      string                `json:"step"`
	Module    string                `json:"module,omitempty"`
	Name      string                `json:"name,omitempty"`
	Finished  bool                  `json:"finished"` // it finished on all its hosts
	DurationS float64               `json:"duration_s,omitempty"`
	Hosts     map[string]HostResult `json:"hosts"`
	// Plans holds the plan per host, in plan mode.
	Plans map[string]Plan `json:"plans,omitempty"`
}

// HostResult is a step's outcome on one host.
type HostResult struct {
	Status    event.Status `json:"status"`
	Message   string       `json:"message,omitempty"`
	DurationS float64      `json:"duration_s"`
	Severity  string       `json:"severity,omitempty"`
	// Result is the step result object, without stdout and stderr, which
	// are in Raw.
	Result      map[string]any    `json:"result,omitempty"`
	Checks      []event.Check     `json:"checks,omitempty"`
	Diagnostics []wire.Diagnostic `json:"diagnostics,omitempty"`
	// Raw maps an output name (stdout, stderr, an evidence name) to its
	// file, relative to the record directory (read it with ReadRaw):
	// raw/sha256/<hex>.zst (version 4; .gz in versions 2 and 3), shared
	// by every host-step with the same output.
	Raw map[string]string `json:"raw,omitempty"`
	// Truncated lists the outputs cut at the record's size cap.
	Truncated []string `json:"truncated,omitempty"`
}

// Plan is what the plan said about a step on a host.
type Plan struct {
	Action  string         `json:"action"`
	Summary string         `json:"summary,omitempty"`
	Changes []event.Change `json:"changes,omitempty"`
}

// Assertion is one evaluated check, flattened for reports.
type Assertion struct {
	Step      string `json:"step"`
	Host      string `json:"host"`
	Name      string `json:"name"`
	Measured  string `json:"measured"`
	Threshold string `json:"threshold,omitempty"`
	Verdict   string `json:"verdict"`
	Message   string `json:"message,omitempty"`
	Severity  string `json:"severity,omitempty"`
}

// Dropped is a host that left the run.
type Dropped struct {
	Step   string `json:"step"`
	Host   string `json:"host"`
	Reason string `json:"reason"`
}
