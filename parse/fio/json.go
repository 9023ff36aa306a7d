package fio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
)

const tool = "fio"

type jsonOut struct {
	Version string    `json:"fio version"`
	Jobs    []jsonJob `json:"jobs"`
}

type jsonJob struct {
	Jobname    string  `json:"jobname"`
	GroupID    int     `json:"groupid"`
	Error      int     `json:"error"`
	Read       *jsonIO `json:"read"`
	Write      *jsonIO `json:"write"`
	Trim       *jsonIO `json:"trim"`
	JobRuntime float64 `json:"job_runtime"`
	UsrCPU     float64 `json:"usr_cpu"`
	SysCPU     float64 `json:"sys_cpu"`
}

type jsonIO struct {
	IOBytes  uint64    `json:"io_bytes"`
	BWBytes  float64   `json:"bw_bytes"`
	BW       float64   `json:"bw"` // KiB/s
	IOPS     float64   `json:"iops"`
	Runtime  float64   `json:"runtime"` // ms
	TotalIOs uint64    `json:"total_ios"`
	SlatNs   *jsonStat `json:"slat_ns"`
	ClatNs   *jsonStat `json:"clat_ns"`
	LatNs    *jsonStat `json:"lat_ns"`
	SlatUs   *jsonStat `json:"slat"` // fio 2.x: µs
	ClatUs   *jsonStat `json:"clat"`
	LatUs    *jsonStat `json:"lat"`
}

type jsonStat struct {
	Min        float64            `json:"min"`
	Max        float64            `json:"max"`
	Mean       float64            `json:"mean"`
	Stddev     float64            `json:"stddev"`
	N          uint64             `json:"N"`
	Percentile map[string]float64 `json:"percentile"`
	Bins       map[string]uint64  `json:"bins"`
}

// parseJSON reads the fio JSON document in raw; line is where it starts.
func parseJSON(raw []byte, line int) (*Result, error) {
	var v jsonOut
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, &parse.Error{Tool: tool, Line: line, Reason: "invalid JSON: " + err.Error()}
	}
	if v.Jobs == nil {
		return nil, &parse.Error{Tool: tool, Line: line, Reason: `JSON has no "jobs" array`}
	}
	r := &Result{Version: v.Version, Format: "json", Jobs: []Job{}}
	for _, jj := range v.Jobs {
		if jj.Error != 0 {
			return nil, jobFailed(jj.Jobname, jj.Error, "", line)
		}
		j := Job{Name: jj.Jobname, GroupID: jj.GroupID, Error: jj.Error, RuntimeMs: jj.JobRuntime, UsrCPU: jj.UsrCPU, SysCPU: jj.SysCPU}
		j.Read, j.Write, j.Trim = jj.Read.io(&r.Format), jj.Write.io(&r.Format), jj.Trim.io(&r.Format)
		r.Jobs = append(r.Jobs, j)
	}
	return r, nil
}

// io converts one direction; nil when it did no I/O. format becomes
// "json+" when latency bins are present.
func (d *jsonIO) io(format *string) *IO {
	if d == nil || (d.TotalIOs == 0 && d.IOBytes == 0) {
		return nil
	}
	mibps := d.BWBytes / (1 << 20)
	if d.BWBytes == 0 {
		mibps = d.BW / 1024
	}
	out := &IO{IOBytes: d.IOBytes, MiBps: mibps, IOPS: d.IOPS, RuntimeMs: d.Runtime, TotalIOs: d.TotalIOs}
	pick := func(ns, us *jsonStat, dst *Stats) {
		s, scale := ns, 1e-3
		if s == nil {
			s, scale = us, 1
		}
		if s == nil {
			return
		}
		*dst = Stats{Min: s.Min * scale, Max: s.Max * scale, Mean: s.Mean * scale, Stddev: s.Stddev * scale, N: s.N}
		if len(s.Bins) > 0 {
			*format = "json+"
		}
		if dst == &out.Clat && len(s.Percentile) > 0 {
			out.ClatPercentiles = map[string]float64{}
			for k, v := range s.Percentile {
				out.ClatPercentiles[pctKey(k)] = v * scale
			}
		}
	}
	pick(d.SlatNs, d.SlatUs, &out.Slat)
	pick(d.ClatNs, d.ClatUs, &out.Clat)
	pick(d.LatNs, d.LatUs, &out.Lat)
	return out
}

// pctKey turns "99.000000" or "99.90" into "99" / "99.9".
func pctKey(k string) string {
	f, err := strconv.ParseFloat(strings.TrimSpace(k), 64)
	if err != nil {
		return k
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// findJSON returns the first JSON object starting in column 0 of a line.
func findJSON(data []byte) (raw []byte, line int, ok bool, err error) {
	off := 0
	for i, l := range bytes.SplitAfter(data, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("{")) {
			var v json.RawMessage
			dec := json.NewDecoder(bytes.NewReader(data[off:]))
			derr := dec.Decode(&v)
			if derr == nil {
				if n, text := secondJSON(data[off+int(dec.InputOffset()):]); n >= 0 {
					return nil, 0, false, &parse.Error{Tool: tool, Line: i + 1 + n, Text: text,
						Reason: "a second JSON document after the first: two fio outputs run together?"}
				}
				return v, i + 1, true, nil
			}
			if err == nil {
				err = &parse.Error{Tool: tool, Line: i + 1, Text: strings.TrimRight(string(l), "\n"), Reason: "invalid JSON: " + derr.Error()}
			}
		}
		off += len(l)
	}
	return nil, 0, false, err
}

// secondJSON returns the line (counted from the end of the first
// document, whose last line is 0) of a second JSON object starting in
// column 0 of rest, and its text; -1 when there is none.
func secondJSON(rest []byte) (int, string) {
	for i, l := range bytes.SplitAfter(rest, []byte("\n")) {
		if bytes.HasPrefix(l, []byte("{")) {
			return i, strings.TrimRight(string(l), "\r\n")
		}
	}
	return -1, ""
}

// jobFailed is the error for a failed job, naming it and its errno.
func jobFailed(job string, errno int, text string, line int) error {
	msg := fmt.Sprintf("job %q failed with error %d", job, errno)
	if desc := errnoText(errno); desc != "" {
		msg += " (" + desc + ")"
	}
	return &parse.Error{Tool: tool, Line: line, Text: text, Reason: msg}
}
