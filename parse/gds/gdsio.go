package gds

import (
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Gdsio is the output of one or more gdsio runs (and gdsio_verify).
type Gdsio struct {
	Results []GdsioResult `json:"results"`
	// Verified is set by a gdsio_verify "Data Verification Success" (true)
	// or "Data Verification Failed"/"... Error" (false) line.
	Verified *bool `json:"verified,omitempty"`
	// Errors keeps lines that report a failure (error, failed, cannot,
	// unable); Other gdsio_verify's parameter dump ("gpu index :0,file
	// :...", "fsync :0,", "Batch mode: 0"). Any other line is an error.
	Errors []string `json:"errors,omitempty"`
	Other  []string `json:"other,omitempty"`
}

// GdsioResult is one "IoType: ... Throughput: ..." summary line.
type GdsioResult struct {
	IoType   string `json:"io_type"`   // READ, WRITE, RANDREAD, ...
	XferType string `json:"xfer_type"` // GPUD (GPUDirect), CPUONLY, CPU_GPU, ...
	Threads  int    `json:"threads"`
	// DataSetKiB is the amount transferred and DataSetTotalKiB the amount
	// asked for ("8363008/8388608(KiB)").
	DataSetKiB      int64   `json:"dataset_kib"`
	DataSetTotalKiB int64   `json:"dataset_total_kib"`
	IOSizeKiB       int64   `json:"io_size_kib"`
	ThroughputGiBs  float64 `json:"throughput_gib_s"`
	AvgLatencyUs    float64 `json:"avg_latency_us"`
	Ops             int64   `json:"ops"`
	TotalTimeS      float64 `json:"total_time_s"`
}

// verifyDumpRe is the parameter dump gdsio_verify prints before its
// verdict (sample gds/gdsio-read-gpud-cpuonly-cpu_gpu-and-gdsio_verify.txt).
var verifyDumpRe = lazyre.New(`^(gpu index :\d+,.*|fsync :\d+,?|Batch mode: \d+)$`)

var gdsioRe = lazyre.New(`^IoType: (\S+) XferType: (\S+) Threads: (\d+) DataSetSize: (\d+)/(\d+)\(KiB\) IOSize: (\d+)\(KiB\) Throughput: ([0-9.]+) GiB/sec, Avg_Latency: ([0-9.]+) usecs ops: (\d+) total_time ([0-9.]+) secs`)

// ParseGdsio reads gdsio result lines and gdsio_verify output. Nothing
// printed is an error (gdsio prints a result line or an error, and has no
// empty form), and so is a line it does not know. A line printed twice
// (the same result line to the last digit, a second parameter dump or a
// second verdict) is two outputs run together, and an error too; an error
// line may repeat (each thread reports its own).
func ParseGdsio(data []byte) (*Gdsio, error) {
	const tool = "gdsio"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	if text.Blank(data) {
		return nil, &parse.Error{Tool: tool, Reason: "printed nothing: gdsio prints a result line or an error"}
	}
	g := &Gdsio{Results: []GdsioResult{}}
	seen := map[string]bool{}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		if line == "" {
			continue
		}
		twice := func() error {
			if seen[line] {
				return &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "the same line a second time (two outputs run together?)"}
			}
			seen[line] = true
			return nil
		}
		switch {
		case strings.HasPrefix(line, "IoType:"):
			if err := twice(); err != nil {
				return nil, err
			}
			m := gdsioRe.FindStringSubmatch(line)
			if m == nil {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "unexpected result line"}
			}
			r := GdsioResult{IoType: m[1], XferType: m[2]}
			var errs [8]error
			r.Threads, errs[0] = strconv.Atoi(m[3])
			r.DataSetKiB, errs[1] = strconv.ParseInt(m[4], 10, 64)
			r.DataSetTotalKiB, errs[2] = strconv.ParseInt(m[5], 10, 64)
			r.IOSizeKiB, errs[3] = strconv.ParseInt(m[6], 10, 64)
			r.ThroughputGiBs, errs[4] = strconv.ParseFloat(m[7], 64)
			r.AvgLatencyUs, errs[5] = strconv.ParseFloat(m[8], 64)
			r.Ops, errs[6] = strconv.ParseInt(m[9], 10, 64)
			r.TotalTimeS, errs[7] = strconv.ParseFloat(m[10], 64)
			for _, err := range errs {
				if err != nil {
					return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad number: " + err.Error()}
				}
			}
			g.Results = append(g.Results, r)
		case strings.HasPrefix(line, "Data Verification"):
			if g.Verified != nil {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "a second verdict: gdsio_verify prints one (two outputs run together?)"}
			}
			ok := strings.Contains(line, "Success")
			g.Verified = &ok
			if !ok {
				g.Errors = append(g.Errors, line)
			}
		case verifyDumpRe.MatchString(line):
			if err := twice(); err != nil {
				return nil, err
			}
			g.Other = append(g.Other, line)
		case failWordRe.MatchString(line) && !text.Terminal(line):
			g.Errors = append(g.Errors, line)
		default:
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "not a gdsio result, gdsio_verify or error line"}
		}
	}
	return g, nil
}
