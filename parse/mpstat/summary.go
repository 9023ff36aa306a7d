package mpstat

// Summary condenses a run into the numbers prova compares between the TCP
// and RDMA runs.
type Summary struct {
	// Source is "average" when computed from the Average rows,
	// "intervals" when those were absent and the interval rows were
	// averaged, "" when there were no rows.
	Source    string `json:"source"`
	Intervals int    `json:"intervals"`
	// All is the all-CPU average (the "all" row, or the mean of the
	// per-CPU rows when no "all" row was printed).
	All CPULoad `json:"all"`
	// PerCPU are the per-CPU averages, in output order (empty without -P).
	PerCPU []CPULoad `json:"per_cpu,omitempty"`
	// BusyCores is the sum over CPUs of (100 - %idle - %iowait) / 100:
	// %iowait is idle time with I/O outstanding, not work, so a CPU
	// waiting on a slow device does not count as busy. Without per-CPU
	// rows it is estimated from the "all" row and the CPU count of the
	// banner, and BusyFromAll is set.
	BusyCores   float64 `json:"busy_cores"`
	BusyFromAll bool    `json:"busy_from_all,omitempty"`
	// HottestPct is the busiest CPU's average busy percentage (100 -
	// %idle - %iowait); 0 without per-CPU rows. A core near 100 % means
	// the run was CPU-bound on that core.
	HottestPct float64 `json:"hottest_pct,omitempty"`
}

// Busy is a row's busy percentage: neither idle nor waiting on I/O.
func (c CPULoad) Busy() float64 { return max(0, 100-c.Idle-c.IOWait) }

// Summary computes the run's summary.
func (r *Result) Summary() Summary {
	s := Summary{Intervals: len(r.Intervals)}
	rows := r.Average
	s.Source = "average"
	if rows == nil {
		rows = averageIntervals(r.Intervals)
		s.Source = "intervals"
	}
	if len(rows) == 0 {
		s.Source = ""
		return s
	}
	var all *CPULoad
	for i := range rows {
		if rows[i].CPU == "all" {
			all = &rows[i]
			continue
		}
		s.PerCPU = append(s.PerCPU, rows[i])
		s.BusyCores += rows[i].Busy() / 100
		s.HottestPct = max(s.HottestPct, rows[i].Busy())
	}
	switch {
	case all != nil:
		s.All = *all
	default:
		s.All = mean(s.PerCPU)
		s.All.CPU = "all"
	}
	if len(s.PerCPU) == 0 && all != nil && r.Host.CPUs > 0 {
		s.BusyCores = all.Busy() / 100 * float64(r.Host.CPUs)
		s.BusyFromAll = true
	}
	return s
}

// averageIntervals averages the rows of each CPU over all intervals, keeping
// the order in which CPUs first appear.
func averageIntervals(ivs []Interval) []CPULoad {
	var order []string
	by := map[string][]CPULoad{}
	for _, iv := range ivs {
		for _, c := range iv.CPUs {
			if _, seen := by[c.CPU]; !seen {
				order = append(order, c.CPU)
			}
			by[c.CPU] = append(by[c.CPU], c)
		}
	}
	out := make([]CPULoad, 0, len(order))
	for _, cpu := range order {
		m := mean(by[cpu])
		m.CPU = cpu
		out = append(out, m)
	}
	return out
}

func mean(rows []CPULoad) CPULoad {
	var m CPULoad
	if len(rows) == 0 {
		return m
	}
	for _, c := range rows {
		m.Usr += c.Usr
		m.Nice += c.Nice
		m.Sys += c.Sys
		m.IOWait += c.IOWait
		m.IRQ += c.IRQ
		m.Soft += c.Soft
		m.Steal += c.Steal
		m.Guest += c.Guest
		m.GNice += c.GNice
		m.Idle += c.Idle
	}
	n := float64(len(rows))
	m.Usr, m.Nice, m.Sys, m.IOWait, m.IRQ = m.Usr/n, m.Nice/n, m.Sys/n, m.IOWait/n, m.IRQ/n
	m.Soft, m.Steal, m.Guest, m.GNice, m.Idle = m.Soft/n, m.Steal/n, m.Guest/n, m.GNice/n, m.Idle/n
	return m
}
