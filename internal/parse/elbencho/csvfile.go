package elbencho

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/provadev/prova/internal/parse"
	"github.com/provadev/prova/internal/parse/bench"
)

const toolCSV = "elbencho --csvfile"

// ParseCSV reads an elbencho --csvfile: a header line, then one row per
// phase (a header repeats where runs were appended). Settings columns go
// to Phase.Config. In rwmix phases the "rwmix read" IOPS and MiB/s are
// added to the normalised IOPS and MiBps, as the console "total" rows do.
func ParseCSV(data []byte) (*Result, error) {
	rd := csv.NewReader(strings.NewReader(string(data)))
	rd.FieldsPerRecord = -1
	rd.LazyQuotes = true
	var header []string
	r := &Result{Phases: []Phase{}}
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := rd.FieldPos(0)
		if err != nil {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Reason: err.Error()}
		}
		if len(rec) > 0 && rec[0] == "ISO date" {
			header = rec
			continue
		}
		if header == nil {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: strings.Join(rec, ","), Reason: `row before the "ISO date,..." header`}
		}
		if len(rec) != len(header) {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: strings.Join(rec, ","),
				Reason: fmt.Sprintf("row has %d fields, header has %d", len(rec), len(header))}
		}
		p, err := csvPhase(header, rec)
		if err != nil {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: strings.Join(rec, ","), Reason: err.Error()}
		}
		r.Phases = append(r.Phases, p)
	}
	if header == nil {
		return nil, &parse.Error{Tool: toolCSV, Reason: `no "ISO date,..." header found`}
	}
	return r, nil
}

// csvPhase builds a phase from one row.
func csvPhase(header, rec []string) (Phase, error) {
	p := Phase{Config: map[string]string{}}
	cols := map[string]*float64{
		"time ms [first]": &p.First.ElapsedMs, "time ms [last]": &p.Last.ElapsedMs,
		"entries/s [first]": &p.First.EntriesPerSec, "entries/s [last]": &p.Last.EntriesPerSec,
		"IOPS [first]": &p.First.IOPS, "IOPS [last]": &p.Last.IOPS,
		"MiB/s [first]": &p.First.MiBps, "MiB/s [last]": &p.Last.MiBps,
		"CPU% [first]": &p.First.CPUPct, "CPU% [last]": &p.Last.CPUPct,
		"entries [first]": &p.First.Entries, "entries [last]": &p.Last.Entries,
		"MiB [first]": &p.First.TotalMiB, "MiB [last]": &p.Last.TotalMiB,
	}
	var readIOPS, readMiBps [2]float64
	for k, c := range []string{"[first]", "[last]"} {
		cols["rwmix read IOPS "+c] = &readIOPS[k]
		cols["rwmix read MiB/s "+c] = &readMiBps[k]
	}
	lat := map[string]*Latency{"Ent lat us": {Type: "Entries"}, "IO lat us": {Type: "IO"}}
	fields := map[string]bench.Field{"[min]": bench.Min, "[avg]": bench.Avg, "[max]": bench.Max}
	for i, h := range header {
		v := rec[i]
		if dst, ok := cols[h]; ok {
			if v == "" {
				continue
			}
			x, err := num(v)
			if err != nil {
				return p, fmt.Errorf("column %q: %v", h, err)
			}
			*dst = x
			continue
		}
		if base, stat, ok := strings.Cut(h, " ["); ok && lat[base] != nil {
			if v == "" {
				continue
			}
			x, err := num(v)
			if err != nil {
				return p, fmt.Errorf("column %q: %v", h, err)
			}
			lat[base].Us.Set(fields["["+stat], x)
			continue
		}
		if h == "operation" {
			p.Name = v
		}
		p.Config[h] = v
	}
	if p.Name == "" {
		return p, fmt.Errorf(`no "operation" value`)
	}
	p.First.IOPS += readIOPS[0]
	p.Last.IOPS += readIOPS[1]
	p.First.MiBps += readMiBps[0]
	p.Last.MiBps += readMiBps[1]
	for _, k := range []string{"IO lat us", "Ent lat us"} {
		if !lat[k].Us.Empty() {
			p.Latency = append(p.Latency, *lat[k])
		}
	}
	p.normalise()
	return p, nil
}
