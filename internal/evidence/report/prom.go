package report

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
)

// WritePrometheus renders the report in the Prometheus text exposition
// format (version 0.0.4), for node_exporter's textfile collector: the
// run's verdict, times and age, per host the verdict of each check, the
// RDMA peers expected and connected, and the three lines' values and
// thresholds. Every series carries the runbook's name, so that one
// collector directory can hold the files of several runbooks.
func (r *Report) WritePrometheus(w io.Writer) error {
	p := &promWriter{runbook: r.runbookName()}
	m := r.Run.Meta
	now := r.now
	verdict := r.Verdict()

	p.family("prova_run_info", "The run this file describes (value always 1).")
	p.sample("prova_run_info", 1, "run_id", m.RunID, "mode", m.Mode, "status", r.Run.Status, "prova_version", m.ProvaVersion)
	p.family("prova_run_verdict", "1 for the run's verdict (pass, fail, incomplete), 0 for the others.")
	for _, v := range []string{"pass", "fail", "incomplete"} {
		p.sample("prova_run_verdict", b2f(v == verdict), "verdict", v)
	}
	if !m.Started.IsZero() {
		p.family("prova_run_start_timestamp_seconds", "When the run started, Unix time.")
		p.sample("prova_run_start_timestamp_seconds", unix(m.Started.Unix(), m.Started.Nanosecond()))
	}
	if !r.Run.Finished.IsZero() {
		p.family("prova_run_finish_timestamp_seconds", "When the run finished, Unix time; alert on time() minus this for a verification that stopped running.")
		p.sample("prova_run_finish_timestamp_seconds", unix(r.Run.Finished.Unix(), r.Run.Finished.Nanosecond()))
		if !now.IsZero() {
			p.family("prova_run_age_seconds", "Seconds from the run's finish to when this file was written.")
			p.sample("prova_run_age_seconds", math.Max(0, now.Sub(r.Run.Finished).Seconds()))
		}
	}
	p.family("prova_run_duration_seconds", "How long the run took.")
	p.sample("prova_run_duration_seconds", r.Run.DurationS)
	p.family("prova_run_hosts", "Hosts in the run.")
	p.sample("prova_run_hosts", float64(len(r.Hosts)))

	p.family("prova_check_verdict", "1 per evaluated check and host, labelled with its verdict after waivers (pass, fail, warn, waived, skipped, info).")
	failed := map[string]int{}
	for _, o := range r.Assertions {
		p.sample("prova_check_verdict", 1, "host", o.Host, "step", o.Step, "check", o.Name, "verdict", o.Verdict)
		if o.Verdict == "fail" {
			failed[o.Host]++
		}
	}
	p.family("prova_host_failed_checks", "Failed checks (after waivers) plus step errors per host.")
	for _, e := range r.StepErrors {
		failed[e.Host]++
	}
	for _, h := range r.Hosts {
		p.sample("prova_host_failed_checks", float64(failed[h]), "host", h)
	}

	if len(r.Peers) > 0 {
		p.family("prova_rdma_peers_connected", "RDMA peers a node is connected to (mmfsadm test verbs conn).")
		for _, pt := range r.Peers {
			p.sample("prova_rdma_peers_connected", float64(pt.Connected), "host", pt.Host)
		}
		p.family("prova_rdma_peers_expected", "RDMA peers a node should be connected to.")
		for _, pt := range r.Peers {
			p.sample("prova_rdma_peers_expected", float64(pt.Expected), "host", pt.Host)
		}
	}

	two := func(name, help string, get func(i int) (host string, vals [2]*float64, extra []string), n int) {
		if n == 0 {
			return
		}
		p.family(name, help)
		for i := range n {
			h, vals, extra := get(i)
			for ti, tr := range []string{"rdma", "tcp"} {
				if vals[ti] != nil {
					p.sample(name, *vals[ti], append([]string{"host", h, "transport", tr}, extra...)...)
				}
			}
		}
	}
	two("prova_latency_microseconds", "Latency per node and transport; measure names the step that measured it.", func(i int) (string, [2]*float64, []string) {
		pt := r.Latency[i]
		return pt.Host, [2]*float64{pt.RDMAUs, pt.TCPUs}, []string{"measure", pt.Measure}
	}, len(r.Latency))
	two("prova_cpu_soft_percent", "%soft at full bandwidth per node and transport (mpstat).", func(i int) (string, [2]*float64, []string) {
		pt := r.CPU[i]
		return pt.Host, [2]*float64{pt.SoftPctRDMA, pt.SoftPctTCP}, nil
	}, len(r.CPU))
	two("prova_cpu_busy_cores", "Busy cores at full bandwidth per node and transport.", func(i int) (string, [2]*float64, []string) {
		pt := r.CPU[i]
		return pt.Host, [2]*float64{pt.BusyCoresRDMA, pt.BusyCoresTCP}, nil
	}, len(r.CPU))
	two("prova_bandwidth_mib_per_second", "Large sequential bandwidth per node and transport: a reference, not a criterion.", func(i int) (string, [2]*float64, []string) {
		pt := r.Bandwidth[i]
		return pt.Host, [2]*float64{pt.RDMAMiBs, pt.TCPMiBs}, nil
	}, len(r.Bandwidth))
	two("prova_bandwidth_line_rate_ratio", "Large sequential bandwidth as a share of line rate (0..1).", func(i int) (string, [2]*float64, []string) {
		pt := r.Bandwidth[i]
		return pt.Host, [2]*float64{ratio(pt.RDMAShare), ratio(pt.TCPShare)}, nil
	}, len(r.Bandwidth))

	first := true
	for _, pt := range r.Latency {
		if l := latencyLimit(pt); l != nil {
			if first {
				first = false
				p.family("prova_latency_threshold_microseconds", "The RDMA latency a node must stay under, from its check's threshold.")
			}
			p.sample("prova_latency_threshold_microseconds", *l, "host", pt.Host, "measure", pt.Measure)
		}
	}
	first = true
	for _, pt := range r.CPU {
		if l := softLimit(pt); l != nil {
			if first {
				p.family("prova_cpu_soft_threshold_percent", "The RDMA %soft a node must stay under, from its check's threshold.")
				first = false
			}
			p.sample("prova_cpu_soft_threshold_percent", *l, "host", pt.Host)
		}
	}
	if len(r.Lines) > 0 {
		p.family("prova_line_check_info", "The check behind each of the three lines per host, with its measured value and threshold as text (value always 1).")
		for _, l := range r.Lines {
			p.sample("prova_line_check_info", 1, "host", l.Host, "line", l.Line, "step", l.Step, "check", l.Check, "measured", l.Measured,
				"threshold", l.Threshold, "verdict", l.Verdict)
		}
	}
	_, err := io.WriteString(w, p.b.String())
	return err
}

func ratio(v *float64) *float64 {
	if v == nil {
		return nil
	}
	x := *v
	if x > 1.5 {
		x /= 100
	}
	return &x
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func unix(sec int64, nsec int) float64 { return float64(sec) + float64(nsec)/1e9 }

// runbookName is the runbook's file name without directory and .hcl.
func (r *Report) runbookName() string {
	n := filepath.Base(r.Run.Meta.Runbook)
	return strings.TrimSuffix(n, ".hcl")
}

// promFileName is the textfile collector's file: one per runbook.
func (r *Report) promFileName() string {
	return "prova_" + fileName(r.runbookName()) + ".prom"
}

type promWriter struct {
	b       strings.Builder
	runbook string
	seen    map[string]bool
}

func (p *promWriter) family(name, help string) {
	fmt.Fprintf(&p.b, "# HELP %s %s\n# TYPE %s gauge\n", name, escHelp(help), name)
}

// sample writes one series; labels are name, value pairs, runbook first.
func (p *promWriter) sample(name string, v float64, labels ...string) {
	if p.seen == nil {
		p.seen = map[string]bool{}
	}
	all := append([]string{"runbook", p.runbook}, labels...)
	var parts []string
	for i := 0; i+1 < len(all); i += 2 {
		parts = append(parts, all[i]+`="`+escLabel(all[i+1])+`"`)
	}
	key := name + "{" + strings.Join(parts, ",") + "}"
	if p.seen[key] {
		return // a duplicate series makes the whole file unreadable
	}
	p.seen[key] = true
	p.b.WriteString(key + " " + promValue(v) + "\n")
}

func promValue(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func escLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

func escHelp(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(s)
}
