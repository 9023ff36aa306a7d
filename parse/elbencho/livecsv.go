package elbencho

import (
	"encoding/csv"
	"fmt"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolLiveCSV = "elbencho --livecsv"

// LiveRow is one --livecsv sample: the progress of a phase at RuntimeMs,
// for all workers (Rank "Total") or one worker (--livecsvex).
type LiveRow struct {
	ISODate       string  `json:"iso_date"`
	Label         string  `json:"label,omitempty"`
	Phase         string  `json:"phase"`
	RuntimeMs     float64 `json:"runtime_ms"`
	Rank          string  `json:"rank"` // "Total" or the worker rank
	MixType       string  `json:"mix_type,omitempty"`
	DonePct       float64 `json:"done_pct"`
	DoneBytes     float64 `json:"done_bytes"`
	MiBps         float64 `json:"mib_s"`
	IOPS          float64 `json:"iops"`
	Entries       float64 `json:"entries"`
	EntriesPerSec float64 `json:"entries_s"`
	LatEntUs      float64 `json:"lat_ent_us"`
	LatIOUs       float64 `json:"lat_io_us"`
	Active        float64 `json:"active"`
	CPUPct        float64 `json:"cpu_pct"`
	Service       string  `json:"service,omitempty"`
}

const liveHeaderPrefix = "ISO Date,Label,Phase,"

var liveRowRe = lazyre.New(`^\d{4}-\d\d-\d\dT[^,]*,`)

type liveHeader struct{ cols []string }

func newLiveHeader(l string) *liveHeader {
	return &liveHeader{cols: strings.Split(l, ",")}
}

// parse reads one CSV row; empty cells (per-rank rows) stay 0.
func (h *liveHeader) parse(l string) (LiveRow, error) {
	rec, err := csv.NewReader(strings.NewReader(l)).Read()
	if err != nil {
		return LiveRow{}, fmt.Errorf("live CSV row: %v", err)
	}
	if len(rec) != len(h.cols) {
		return LiveRow{}, fmt.Errorf("live CSV row has %d fields, header has %d", len(rec), len(h.cols))
	}
	var r LiveRow
	nums := map[string]*float64{
		"RuntimeMS": &r.RuntimeMs, "Done%": &r.DonePct, "DoneBytes": &r.DoneBytes, "MiB/s": &r.MiBps,
		"IOPS": &r.IOPS, "Entries": &r.Entries, "Entries/s": &r.EntriesPerSec, "Lat Ent us": &r.LatEntUs,
		"Lat IO us": &r.LatIOUs, "Active": &r.Active, "CPU": &r.CPUPct,
	}
	strs := map[string]*string{"ISO Date": &r.ISODate, "Label": &r.Label, "Phase": &r.Phase, "Rank": &r.Rank,
		"MixType": &r.MixType, "Service": &r.Service}
	for i, c := range h.cols {
		if p, ok := strs[c]; ok {
			*p = rec[i]
		} else if p, ok := nums[c]; ok && rec[i] != "" {
			v, err := num(rec[i])
			if err != nil {
				return LiveRow{}, fmt.Errorf("column %s: %v", c, err)
			}
			*p = v
		}
	}
	return r, nil
}

// ParseLiveCSV reads a --livecsv file (header line, then one row per
// interval and, with --livecsvex, per worker).
func ParseLiveCSV(data []byte) ([]LiveRow, error) {
	if err := parse.Complete("elbencho --livecsv", data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	var h *liveHeader
	out := []LiveRow{}
	header := 0
	for i, l := range lines {
		switch {
		case strings.TrimSpace(l) == "":
		case strings.HasPrefix(l, liveHeaderPrefix):
			// elbencho writes the header once, when it opens the file.
			if header > 0 {
				return nil, &parse.Error{Tool: toolLiveCSV, Line: i + 1, Text: l,
					Reason: fmt.Sprintf("a second header (the first is on line %d): two files run together?", header)}
			}
			header = i + 1
			h = newLiveHeader(l)
		case h == nil:
			return nil, &parse.Error{Tool: toolLiveCSV, Line: i + 1, Text: l, Reason: "row before the " + strings.TrimSuffix(liveHeaderPrefix, ",") + " header"}
		default:
			r, err := h.parse(l)
			if err != nil {
				return nil, &parse.Error{Tool: toolLiveCSV, Line: i + 1, Text: l, Reason: err.Error()}
			}
			out = append(out, r)
		}
	}
	if h == nil {
		return nil, &parse.Error{Tool: toolLiveCSV, Reason: "no live CSV header found"}
	}
	return out, nil
}
