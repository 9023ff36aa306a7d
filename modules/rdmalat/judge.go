package rdmalat

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
)

// judge turns pair measurements into per-host results: each host's average
// over its pairs, compared with max_lat_us and with outlier_factor times
// the cluster median.
func judge(order []string, ms []measure, a args) map[string]module.ApplyResponse {
	perHost := map[string][]measure{}
	for _, m := range ms {
		perHost[m.server] = append(perHost[m.server], m)
		perHost[m.client] = append(perHost[m.client], m)
	}
	avg := map[string]float64{}
	var all []float64
	for h, list := range perHost {
		var sum float64
		n := 0
		for _, m := range list {
			if m.row != nil {
				sum += m.row.AvgUs
				n++
			}
		}
		if n > 0 {
			avg[h] = sum / float64(n)
			all = append(all, avg[h])
		}
	}
	med := median(all)
	// A failed test has two ends. A host whose every test failed is where
	// the problem lies; a host that passed some tests and failed only with
	// such hosts is not blamed for those.
	allFailed := map[string]bool{}
	for h, list := range perHost {
		failed := 0
		for _, m := range list {
			if m.row == nil {
				failed++
			}
		}
		allFailed[h] = failed == len(list) && len(list) > 0
	}
	out := map[string]module.ApplyResponse{}
	for _, h := range order {
		list := perHost[h]
		var pairs []cty.Value
		var fails, notes []string
		p99 := 0.0
		for _, m := range list {
			peer, role := m.client, "server"
			if m.client == h {
				peer, role = m.server, "client"
			}
			pv := map[string]cty.Value{"peer": cty.StringVal(peer), "role": cty.StringVal(role), "ok": cty.BoolVal(m.row != nil),
				"error": cty.StringVal(""), "lat_avg_us": cty.NullVal(cty.Number), "lat_typical_us": cty.NullVal(cty.Number),
				"lat_min_us": cty.NullVal(cty.Number), "lat_max_us": cty.NullVal(cty.Number),
				"lat_p99_us": cty.NullVal(cty.Number), "lat_p999_us": cty.NullVal(cty.Number)}
			if m.row != nil {
				pv["lat_avg_us"] = cty.NumberFloatVal(m.row.AvgUs)
				pv["lat_typical_us"] = cty.NumberFloatVal(m.row.TypicalUs)
				pv["lat_min_us"] = cty.NumberFloatVal(m.row.MinUs)
				pv["lat_max_us"] = cty.NumberFloatVal(m.row.MaxUs)
				pv["lat_p99_us"] = cty.NumberFloatVal(m.row.P99Us)
				pv["lat_p999_us"] = cty.NumberFloatVal(m.row.P999Us)
				p99 = math.Max(p99, m.row.P99Us)
			} else {
				pv["error"] = cty.StringVal(m.err.Error())
				if !allFailed[h] && allFailed[peer] {
					notes = append(notes, fmt.Sprintf("test with %s failed, which fails every test: the problem is on its side", peer))
				} else {
					fails = append(fails, fmt.Sprintf("test with %s failed: %v", peer, m.err))
				}
			}
			pairs = append(pairs, cty.ObjectVal(pv))
		}
		resp := module.ApplyResponse{Evidence: map[string]string{}}
		for _, m := range list {
			if m.client == h && m.raw != "" {
				resp.Evidence[fmt.Sprintf("%s to %s", a.Tool, m.server)] = m.raw
			}
		}
		lat, has := avg[h]
		outlier := has && med > 0 && lat > a.OutlierFactor*med
		check := module.Check{Name: a.Tool + " latency", Verdict: "pass"}
		if has {
			check.Measured = fmt.Sprintf("%.2f µs", lat)
			check.Threshold = fmt.Sprintf("<= %.1f x cluster median (%.2f µs)", a.OutlierFactor, med)
			if a.MaxLatUs != nil {
				check.Threshold += fmt.Sprintf(", <= %g µs", *a.MaxLatUs)
			}
		}
		switch {
		case !has:
			check.Verdict, check.Measured = "fail", "no measurement"
		case outlier:
			fails = append(fails, fmt.Sprintf("%.2f µs is more than %.1f x the cluster median of %.2f µs", lat, a.OutlierFactor, med))
		case a.MaxLatUs != nil && lat > *a.MaxLatUs:
			fails = append(fails, fmt.Sprintf("%.2f µs is above the %g µs limit", lat, *a.MaxLatUs))
		}
		if len(fails) > 0 {
			check.Verdict = "fail"
			check.Message = strings.Join(fails, "; ")
			resp.Failed = true
			resp.Message = h + ": " + check.Message
		} else if len(notes) > 0 {
			resp.Message = h + ": " + strings.Join(notes, "; ")
		}
		resp.Checks = []module.Check{check}
		pl := cty.ListValEmpty(pairType)
		if len(pairs) > 0 {
			pl = cty.ListVal(pairs)
		}
		num := func(ok bool, x float64) cty.Value {
			if !ok {
				return cty.NullVal(cty.Number)
			}
			return cty.NumberFloatVal(x)
		}
		resp.Outputs = cty.ObjectVal(map[string]cty.Value{
			"lat_avg_us":        num(has, lat),
			"lat_p99_us":        num(p99 > 0, p99),
			"cluster_median_us": num(med > 0, med),
			"outlier":           cty.BoolVal(outlier),
			"pairs":             pl,
		})
		out[h] = resp
	}
	return out
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
