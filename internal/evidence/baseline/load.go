package baseline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/provadev/prova/internal/evidence/record"
)

// ReportSchema is the schema of a JSON report, which is also a baseline
// file.
const ReportSchema = "prova-report/1"

// exported is the part of a JSON report a baseline needs: the run's meta
// and every step's per-host results.
type exported struct {
	Schema     string        `json:"schema"`
	Incomplete bool          `json:"incomplete"`
	Reason     string        `json:"incomplete_reason"`
	Run        record.Meta   `json:"run"`
	Steps      []record.Step `json:"steps"`
}

// Resolve turns a run argument into a path: "latest" is the newest record
// under root, a run ID is root/<id>, anything else is a path as given.
func Resolve(arg, root string) (string, error) {
	switch {
	case arg == "latest":
		return record.Latest(root)
	case record.IsRunID(arg):
		if _, err := os.Stat(arg); err == nil {
			return arg, nil // a directory of that name here
		}
		return filepath.Join(root, arg), nil
	}
	return arg, nil
}

// IncompleteError refuses an incomplete run (killed, or still running) as
// a baseline: it proves nothing about the hosts it did not finish.
type IncompleteError struct {
	Path, Reason string
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("baseline %s is incomplete (%s): a run that did not finish is no baseline; name a complete run, or pass --force-baseline to use what it recorded", e.Path, e.Reason)
}

// Load reads a baseline: a run directory, a run.json file, or a JSON
// report (schema prova-report/1). A report has no raw outputs; its Dir is
// the file's path. An incomplete run is refused with an *IncompleteError;
// LoadForce takes it anyway.
func Load(path string) (*record.Record, error) {
	rec, err := LoadForce(path)
	if err == nil && rec.Incomplete {
		return nil, &IncompleteError{Path: path, Reason: rec.IncompleteReason}
	}
	return rec, err
}

// LoadForce reads a baseline as Load does, incomplete runs included.
func LoadForce(path string) (*record.Record, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load baseline: %w", err)
	}
	if fi.IsDir() {
		return record.Load(path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load baseline: %w", err)
	}
	var probe struct {
		Schema  *string `json:"schema"`
		Version *int    `json:"version"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, fmt.Errorf("load baseline %s: not JSON: %w", path, err)
	}
	switch {
	case probe.Schema != nil:
		return decodeReport(path, b, *probe.Schema)
	case probe.Version != nil:
		if filepath.Base(path) == "run.json" {
			return record.Load(path)
		}
		return decodeRecord(path, b) // a run.json copied under another name
	}
	return nil, fmt.Errorf("load baseline %s: neither a run record (run.json) nor a JSON report (schema %s)", path, ReportSchema)
}

func decodeReport(path string, b []byte, schema string) (*record.Record, error) {
	if schema != ReportSchema {
		return nil, fmt.Errorf("load baseline %s: report schema %q, this prova reads %s", path, schema, ReportSchema)
	}
	var e exported
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&e); err != nil {
		return nil, fmt.Errorf("load baseline %s: %w", path, err)
	}
	return &record.Record{Version: record.Version, Meta: e.Run, Steps: e.Steps, Dir: path,
		Incomplete: e.Incomplete, IncompleteReason: e.Reason}, nil
}

func decodeRecord(path string, b []byte) (*record.Record, error) {
	var rec record.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fmt.Errorf("load baseline %s: %w", path, err)
	}
	if rec.Version < 1 || rec.Version > record.Version {
		return nil, fmt.Errorf("load baseline %s: run record format version %d, this prova reads up to %d", path, rec.Version, record.Version)
	}
	if rec.Status == record.StatusRunning {
		// A copied run.json of a run that never finished: without its
		// events.jsonl it cannot be rebuilt.
		rec.Incomplete, rec.IncompleteReason = true, "status running: the run never closed its record"
	}
	rec.Dir = filepath.Dir(path)
	return &rec, nil
}
