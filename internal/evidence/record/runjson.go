package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/provadev/prova/engine/event"
	"github.com/provadev/prova/internal/evidence/wire"
)

// run.json is the record as encoding/json encodes Record (HTML escaping
// off, no indentation). Its steps' host results are most of it, and
// encoding them by reflection (sorting each step's hosts, every result
// map through reflect) was most of the record's cost at Close in the
// fan-out profile. appendRunJSON writes the same bytes with the steps
// encoded by hand (appendHostResult, as for the lines of events.jsonl)
// and every other member by encoding/json: the members before "steps"
// as recordHead, those after it as recordTail. TestRunJSONIsEncodingJSON
// compares the two encodings, and TestRecordHeadAndTailCoverRecord fails
// when Record gains a member these two do not carry.

// recordHead is Record's members before Steps, in order, tags as there.
type recordHead struct {
	Version   int                    `json:"version"`
	Meta      Meta                   `json:"meta"`
	Status    string                 `json:"status"`
	Finished  time.Time              `json:"finished,omitzero"`
	DurationS float64                `json:"duration_s,omitempty"`
	Aborted   *Abort                 `json:"aborted,omitempty"`
	Tallies   map[string]event.Tally `json:"tallies"`
}

// recordTail is Record's members after Steps.
type recordTail struct {
	Assertions       []Assertion     `json:"assertions"`
	Dropped          []Dropped       `json:"dropped,omitempty"`
	Warnings         []event.Warning `json:"warnings,omitempty"`
	PlannedSteps     []string        `json:"planned_steps,omitempty"`
	Incomplete       bool            `json:"incomplete,omitempty"`
	IncompleteReason string          `json:"incomplete_reason,omitempty"`
}

// appendRunJSON appends rec's run.json, with its final newline; held
// is the Writer's encoded host-steps per step (nil: rec's Step.Hosts).
func appendRunJSON(b []byte, rec *Record, held map[string]map[string]heldResult) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	err := writeRunJSON(buf, rec, held)
	return buf.Bytes(), err
}

// writeRunJSON writes rec's run.json, with its final newline, to out one
// step at a time: what it holds besides the record is one step's
// encoding, not the whole file (at 200 hosts x 10 steps run.json is
// about 1 MB, built whole in memory at Close before the sixth round's
// seventh pass). The bytes are appendRunJSON's, which is this function
// writing into memory. An error leaves out with a part of the file.
//
// A step whose hosts are in held (the Writer's) has them written as held
// (their encodings made at Observe); other steps' from Step.Hosts.
func writeRunJSON(out io.Writer, rec *Record, held map[string]map[string]heldResult) error {
	head, err := plainJSON(recordHead{Version: rec.Version, Meta: rec.Meta, Status: rec.Status,
		Finished: rec.Finished, DurationS: rec.DurationS, Aborted: rec.Aborted, Tallies: rec.Tallies})
	if err != nil {
		return err
	}
	tail, err := plainJSON(recordTail{Assertions: rec.Assertions, Dropped: rec.Dropped, Warnings: rec.Warnings,
		PlannedSteps: rec.PlannedSteps, Incomplete: rec.Incomplete, IncompleteReason: rec.IncompleteReason})
	if err != nil {
		return err
	}
	// Both are objects with at least one member ("version", "assertions").
	b := append(head[:len(head)-1], `,"steps":`...)
	if rec.Steps == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		var keys []string
		for i := range rec.Steps {
			if i > 0 {
				b = append(b, ',')
			}
			if b, keys, err = appendStep(b, &rec.Steps[i], held[rec.Steps[i].Step], keys); err != nil {
				return err
			}
			if _, err := out.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		b = append(b, ']')
	}
	b = append(b, ',')
	b = append(b, tail[1:]...)
	b = append(b, '\n')
	_, err = out.Write(b)
	return err
}

// plainJSON is v as encoding/json encodes it with HTML escaping off,
// without the encoder's newline.
func plainJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// appendStep appends one step's encoding, its hosts from held if not nil;
// keys is a buffer for its host names, returned for the next step.
func appendStep(b []byte, st *Step, held map[string]heldResult, keys []string) ([]byte, []string, error) {
	b = append(b, `{"step":`...)
	b = wire.AppendString(b, st.Step)
	if st.Module != "" {
		b = append(b, `,"module":`...)
		b = wire.AppendString(b, st.Module)
	}
	if st.Name != "" {
		b = append(b, `,"name":`...)
		b = wire.AppendString(b, st.Name)
	}
	if st.Finished {
		b = append(b, `,"finished":true`...)
	} else {
		b = append(b, `,"finished":false`...)
	}
	if st.DurationS != 0 {
		b = append(b, `,"duration_s":`...)
		var ok bool
		if b, ok = wire.AppendFloat(b, st.DurationS); !ok {
			return b, keys, fmt.Errorf("step %s: duration %v is not a JSON number", st.Step, st.DurationS)
		}
	}
	b = append(b, `,"hosts":`...)
	if held != nil {
		var err error
		if b, keys, err = appendHeldHosts(b, st.Step, held, keys); err != nil {
			return b, keys, err
		}
	} else if st.Hosts == nil {
		b = append(b, "null"...)
	} else {
		keys = appendSortedKeys(keys, st.Hosts)
		b = append(b, '{')
		for j, k := range keys {
			if j > 0 {
				b = append(b, ',')
			}
			b = wire.AppendString(b, k)
			b = append(b, ':')
			hr := st.Hosts[k]
			mark := len(b)
			var ok bool
			if b, ok = appendHostResult(b, &hr); !ok {
				// checks, diagnostics, an unusual result: encoding/json.
				js, err := plainJSON(hr)
				if err != nil {
					return b, keys, err
				}
				b = append(b[:mark], js...)
			}
		}
		b = append(b, '}')
	}
	if len(st.Plans) > 0 {
		js, err := plainJSON(st.Plans)
		if err != nil {
			return b, keys, err
		}
		b = append(b, `,"plans":`...)
		b = append(b, js...)
	}
	return append(b, '}'), keys, nil
}
