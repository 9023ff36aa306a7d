package elbencho

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/bench"
	"github.com/provadev/prova/parse/text"
)

const toolCSV = "elbencho --csvfile"

// ParseCSV reads an elbencho --csvfile: a header line (elbencho writes it
// into an empty file only; runs appended later add rows), then one row per
// phase. A row seen a second time is the file read twice, an error. Settings columns go
// to Phase.Config. In rwmix phases the "rwmix read" IOPS and MiB/s are
// added to the normalised IOPS and MiBps, as the console "total" rows do.
//
// elbencho writes the command line into its last column ("command") as
// space-separated, individually quoted words without CSV-escaping the
// column itself; when the header ends in such a column, a row's extra
// fields are taken as part of it.
func ParseCSV(data []byte) (*Result, error) {
	if err := parse.Complete("elbencho --csvfile", data); err != nil {
		return nil, err
	}
	var header []string
	seen := map[string]int{}
	r := &Result{Phases: []Phase{}}
	lines := text.Lines(data)
	for i, text := range lines {
		line := i + 1
		if strings.TrimSpace(text) == "" {
			continue
		}
		rec, err := csvFields(text, header)
		if err != nil {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: text, Reason: err.Error()}
		}
		if len(rec) > 0 && rec[0] == "ISO date" {
			header = rec
			continue
		}
		if header == nil {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: text, Reason: `row before the "ISO date,..." header`}
		}
		// One row per phase, each with its date and operation: a row
		// written twice is the file read twice, not a second phase.
		if first, dup := seen[text]; dup {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: text,
				Reason: fmt.Sprintf("the same row as line %d, again: two files run together?", first)}
		}
		seen[text] = line
		if len(rec) != len(header) {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: text,
				Reason: fmt.Sprintf("row has %d fields, header has %d", len(rec), len(header))}
		}
		p, err := csvPhase(header, rec)
		if err != nil {
			return nil, &parse.Error{Tool: toolCSV, Line: line, Text: text, Reason: err.Error()}
		}
		r.Phases = append(r.Phases, p)
	}
	if header == nil {
		return nil, &parse.Error{Tool: toolCSV, Reason: `no "ISO date,..." header found`}
	}
	return r, nil
}

// csvFields splits one CSV line. With a header whose last column is the
// command line, the first len(header)-1 fields are split as CSV and the
// rest of the line is the command, as written.
func csvFields(text string, header []string) ([]string, error) {
	if n := len(header); n > 1 && strings.HasPrefix(strings.ToLower(header[n-1]), "command") && !strings.HasPrefix(text, "ISO date,") {
		parts := strings.SplitN(text, ",", n)
		if len(parts) == n {
			head, err := csvLine(strings.Join(parts[:n-1], ","))
			if err == nil && len(head) == n-1 {
				return append(head, parts[n-1]), nil
			}
		}
	}
	return csvLine(text)
}

func csvLine(text string) ([]string, error) {
	rd := csv.NewReader(strings.NewReader(text))
	rd.FieldsPerRecord = -1
	rd.LazyQuotes = true
	rec, err := rd.Read()
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	return rec, err
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
