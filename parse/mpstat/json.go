package mpstat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/provadev/prova/parse"
)

const jsonTool = "mpstat -o JSON"

type jsonStat struct {
	Timestamp string    `json:"timestamp"`
	CPULoad   []jsonCPU `json:"cpu-load"`
}

type jsonCPU struct {
	CPU    json.RawMessage `json:"cpu"` // "all", "0" (a number in some versions)
	Usr    float64         `json:"usr"`
	Nice   float64         `json:"nice"`
	Sys    float64         `json:"sys"`
	IOWait float64         `json:"iowait"`
	IRQ    float64         `json:"irq"`
	Soft   float64         `json:"soft"`
	Steal  float64         `json:"steal"`
	Guest  float64         `json:"guest"`
	GNice  float64         `json:"gnice"`
	Idle   float64         `json:"idle"`
}

// errTruncated marks JSON that ends early: mpstat was stopped mid-output.
var errTruncated = errors.New("truncated")

// jsonParser walks sysstat's JSON with a token decoder so that a document
// cut by a signal still yields the statistics before the cut.
type jsonParser struct {
	data []byte
	dec  *json.Decoder
	res  *Result
}

// ParseJSON reads `mpstat -o JSON` output (sysstat.hosts[].statistics[]).
// JSON output never has an Average block.
func ParseJSON(data []byte) (*Result, error) {
	p := &jsonParser{data: data, dec: json.NewDecoder(bytes.NewReader(data)), res: &Result{Intervals: []Interval{}}}
	err := p.object(func(key string) error {
		if key != "sysstat" {
			return p.skip()
		}
		return p.object(func(key string) error {
			if key != "hosts" {
				return p.skip()
			}
			return p.array(p.host)
		})
	})
	switch {
	case errors.Is(err, errTruncated):
		p.res.Truncated = true
	case err != nil:
		return nil, p.fail(err)
	}
	if !p.res.Truncated {
		if _, err := p.dec.Token(); err != io.EOF {
			return nil, p.fail(errors.New("data after the JSON document"))
		}
	}
	return p.res, nil
}

func (p *jsonParser) fail(err error) error {
	off := p.dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	if off > int64(len(p.data)) {
		off = int64(len(p.data))
	}
	return &parse.Error{Tool: jsonTool, Line: bytes.Count(p.data[:off], []byte("\n")) + 1, Reason: err.Error()}
}

// token reads one token; EOF inside the document is truncation.
func (p *jsonParser) token() (json.Token, error) {
	t, err := p.dec.Token()
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, errTruncated
	}
	return t, err
}

func (p *jsonParser) decode(v any) error {
	err := p.dec.Decode(v)
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return errTruncated
	}
	return err
}

func (p *jsonParser) delim(want json.Delim) error {
	t, err := p.token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("expected %q, got %v", want, t)
	}
	return nil
}

// object reads an object, calling member for the value of each key.
func (p *jsonParser) object(member func(key string) error) error {
	if err := p.delim('{'); err != nil {
		return err
	}
	for p.dec.More() {
		t, err := p.token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return fmt.Errorf("expected an object key, got %v", t)
		}
		if err := member(key); err != nil {
			return err
		}
	}
	return p.delim('}')
}

// array reads an array, calling elem for each element.
func (p *jsonParser) array(elem func() error) error {
	if err := p.delim('['); err != nil {
		return err
	}
	for p.dec.More() {
		if err := elem(); err != nil {
			return err
		}
	}
	return p.delim(']')
}

func (p *jsonParser) skip() error {
	var v json.RawMessage
	return p.decode(&v)
}

func (p *jsonParser) host() error {
	first := p.res.Host == Host{}
	var h Host
	err := p.object(func(key string) error {
		switch key {
		case "nodename":
			return p.decode(&h.Nodename)
		case "sysname":
			return p.decode(&h.Sysname)
		case "release":
			return p.decode(&h.Release)
		case "machine":
			return p.decode(&h.Machine)
		case "date":
			return p.decode(&h.Date)
		case "number-of-cpus":
			return p.decode(&h.CPUs)
		case "statistics":
			return p.array(p.statistic)
		}
		return p.skip()
	})
	if first {
		p.res.Host = h
	}
	return err
}

func (p *jsonParser) statistic() error {
	var st jsonStat
	if err := p.decode(&st); err != nil {
		return err
	}
	if st.CPULoad == nil {
		return nil // other statistics (-I, -n)
	}
	iv := Interval{Time: st.Timestamp, CPUs: make([]CPULoad, 0, len(st.CPULoad))}
	for _, c := range st.CPULoad {
		cpu, err := cpuName(c.CPU)
		if err != nil {
			return err
		}
		iv.CPUs = append(iv.CPUs, CPULoad{CPU: cpu, Usr: c.Usr, Nice: c.Nice, Sys: c.Sys, IOWait: c.IOWait, IRQ: c.IRQ,
			Soft: c.Soft, Steal: c.Steal, Guest: c.Guest, GNice: c.GNice, Idle: c.Idle})
	}
	p.res.Intervals = append(p.res.Intervals, iv)
	return nil
}

func cpuName(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil && s != "" {
		return s, nil
	}
	var n int
	if err := json.Unmarshal(raw, &n); err == nil {
		return strconv.Itoa(n), nil
	}
	return "", fmt.Errorf("cpu is neither a string nor a number: %s", raw)
}
