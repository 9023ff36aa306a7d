package fio

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
)

var (
	versionRe   = lazyre.New(`^fio-(\S+)$`)
	jobDeclRe   = lazyre.New(`^(\S.*): \(g=\d+\): rw=`)
	jobHeadRe   = lazyre.New(`^(\S.*): \(groupid=(\d+), jobs=\d+\): err=\s*(\d+)(?: \(([^)]*)\))?: pid=`)
	dirRe       = lazyre.New(`^\s+(read|write|trim): IOPS=([^,]+), BW=(\S+) \([^)]*\)\((\S+)/(\d+)msec\)`)
	latRe       = lazyre.New(`^\s+(slat|clat|lat) \((nsec|usec|msec|sec)\): min=\s*([^,]+), max=\s*([^,]+), avg=\s*([^,]+), stdev=\s*(\S+)$`)
	latPrefixRe = lazyre.New(`^\s+(slat|clat|lat) \(\w+\): min=`)
	pctHeadRe   = lazyre.New(`^\s+clat percentiles \((nsec|usec|msec|sec)\):$`)
	pctRowRe    = lazyre.New(`^\s+\|`)
	pctItemRe   = lazyre.New(`(\d+\.\d+)th=\[\s*(\d+)\]`)
	cpuRe       = lazyre.New(`^\s+cpu\s+: usr=([\d.]+)%, sys=([\d.]+)%`)
	failedPidRe = lazyre.New(`^fio: pid=\d+, err=(\d+)/(.*)$`)
	groupRe     = lazyre.New(`^Run status group (\d+) \(all jobs\):$`)
	pidRe       = lazyre.New(`: pid=(\d+)`)
)

// parseText reads fio's normal output (fio 3.x).
func parseText(lines []string) (*Result, error) {
	r := &Result{Format: "normal", Jobs: []Job{}}
	var declared []string
	var job *Job
	var io *IO
	pctUnit := 0.0
	errAt := func(i int, err error) error {
		return &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: err.Error()}
	}
	// One run prints its job declarations and version once, then one
	// result per job process (each with its own pid), one "Run status
	// group N" per group and one "Disk stats" block. Several jobs and
	// groups are told apart by that structure; anything printed a second
	// time is a second run.
	second := func(i int, what string) error {
		return &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: what + ": two fio outputs run together?"}
	}
	pids, groups := map[string]bool{}, map[string]bool{}
	disk := false
	for i, l := range lines {
		l = strings.TrimRight(l, " \t")
		if m := versionRe.FindStringSubmatch(l); m != nil {
			if r.Version != "" || len(r.Jobs) > 0 {
				return nil, second(i, "a second fio version line")
			}
			r.Version = l
			continue
		}
		if m := jobDeclRe.FindStringSubmatch(l); m != nil {
			if len(r.Jobs) > 0 || len(groups) > 0 {
				return nil, second(i, "a job declaration after the results")
			}
			declared = append(declared, m[1])
			continue
		}
		if m := groupRe.FindStringSubmatch(l); m != nil {
			if groups[m[1]] || disk {
				return nil, second(i, "run status group "+m[1]+" a second time")
			}
			groups[m[1]] = true
			job, io = nil, nil
			continue
		}
		if strings.HasPrefix(l, "Disk stats (") {
			if disk {
				return nil, second(i, "a second disk stats block")
			}
			disk, job, io = true, nil, nil
			continue
		}
		if m := failedPidRe.FindStringSubmatch(l); m != nil {
			name := "?"
			if len(declared) == 1 {
				name = declared[0]
			}
			n, _ := strconv.Atoi(m[1])
			return nil, jobFailed(name, n, l, i+1)
		}
		if m := jobHeadRe.FindStringSubmatch(l); m != nil {
			if p := pidRe.FindStringSubmatch(l); p != nil {
				if pids[p[1]] {
					return nil, second(i, "the result of job process "+p[1]+" a second time")
				}
				pids[p[1]] = true
			}
			if len(groups) > 0 {
				return nil, second(i, "a job result after the run status")
			}
			g, _ := strconv.Atoi(m[2])
			e, _ := strconv.Atoi(m[3])
			if e != 0 {
				return nil, jobFailed(m[1], e, l, i+1)
			}
			r.Jobs = append(r.Jobs, Job{Name: m[1], GroupID: g})
			job, io, pctUnit = &r.Jobs[len(r.Jobs)-1], nil, 0
			continue
		}
		if job == nil {
			continue
		}
		switch {
		case dirRe.MatchString(l):
			m := dirRe.FindStringSubmatch(l)
			d, err := parseDir(m)
			if err != nil {
				return nil, errAt(i, err)
			}
			io = d
			switch m[1] {
			case "read":
				job.Read = d
			case "write":
				job.Write = d
			case "trim":
				job.Trim = d
			}
		case io != nil && latRe.MatchString(l):
			m := latRe.FindStringSubmatch(l)
			s, err := parseLat(m)
			if err != nil {
				return nil, errAt(i, err)
			}
			*map[string]*Stats{"slat": &io.Slat, "clat": &io.Clat, "lat": &io.Lat}[m[1]] = *s
		case latPrefixRe.MatchString(l):
			return nil, errAt(i, fmt.Errorf("latency line not in the form min=, max=, avg=, stdev= with nsec/usec/msec/sec"))
		case io != nil && pctHeadRe.MatchString(l):
			pctUnit = usPer[pctHeadRe.FindStringSubmatch(l)[1]]
			io.ClatPercentiles = map[string]float64{}
		case io != nil && pctUnit != 0 && pctRowRe.MatchString(l):
			items := pctItemRe.FindAllStringSubmatch(l, -1)
			if len(items) == 0 {
				return nil, errAt(i, fmt.Errorf("percentile row without N.NNth=[v] items"))
			}
			for _, it := range items {
				v, _ := strconv.ParseFloat(it[2], 64)
				io.ClatPercentiles[pctKey(it[1])] = v * pctUnit
			}
		case cpuRe.MatchString(l):
			m := cpuRe.FindStringSubmatch(l)
			job.UsrCPU, _ = strconv.ParseFloat(m[1], 64)
			job.SysCPU, _ = strconv.ParseFloat(m[2], 64)
			io, pctUnit = nil, 0
		}
	}
	if len(r.Jobs) == 0 {
		for i, l := range lines {
			if strings.HasPrefix(l, "fio: ") {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: l, Reason: "fio failed before running any job"}
			}
		}
		return nil, &parse.Error{Tool: tool, Reason: "no job results found"}
	}
	return r, nil
}

// parseDir reads "read: IOPS=41.6k, BW=162MiB/s (170MB/s)(812MiB/5001msec)".
func parseDir(m []string) (*IO, error) {
	iops, err := suffixed(m[2])
	if err != nil {
		return nil, fmt.Errorf("IOPS: %v", err)
	}
	bw, err := mibps(m[3])
	if err != nil {
		return nil, fmt.Errorf("BW: %v", err)
	}
	size, err := bytesOf(m[4])
	if err != nil {
		return nil, fmt.Errorf("io size: %v", err)
	}
	ms, _ := strconv.ParseFloat(m[5], 64)
	return &IO{IOPS: iops, MiBps: bw, IOBytes: uint64(size), RuntimeMs: ms}, nil
}

// parseLat reads "clat (usec): min=86, max=81722, avg=753.55, stdev=2293.85".
func parseLat(m []string) (*Stats, error) {
	unit := usPer[m[2]]
	var v [4]float64
	for k := range v {
		x, err := suffixed(m[3+k])
		if err != nil {
			return nil, fmt.Errorf("%s: %v", m[1], err)
		}
		v[k] = x * unit
	}
	return &Stats{Min: v[0], Max: v[1], Mean: v[2], Stddev: v[3]}, nil
}
