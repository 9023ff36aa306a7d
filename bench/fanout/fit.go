package benchfanout

import (
	"fmt"
	"math"
	"strings"
)

// CostFit is a tool's whole-process CPU split by least squares into
// CPU = PerRun + PerHost·N + PerHostStep·N·steps (seconds), each with its
// standard error, from every run of the tool at every (N, steps).
type CostFit struct {
	Tool                         string
	PerRun, PerHost, PerHostStep float64
	// SE are the standard errors of PerRun, PerHost and PerHostStep.
	SE [3]float64
	// Points is the number of runs fitted; Cells the distinct (N, steps).
	Points, Cells int
}

// Fit splits tool's CPU over rows. Each run in a row's Samples is one
// point (a row without Samples counts as one point, its mean); it needs
// at least two host counts and two step counts, and more points than
// coefficients.
func Fit(rows []Row, tool string) (CostFit, error) {
	f := CostFit{Tool: tool}
	var xs [][3]float64
	var ys []float64
	ns, ss := map[int]bool{}, map[int]bool{}
	for _, r := range rows {
		if r.Tool != tool || r.Skipped != "" || r.Runs == 0 {
			continue
		}
		n, s := float64(r.Hosts), float64(r.StepCount())
		samples := r.Samples
		if len(samples) == 0 {
			samples = []Usage{r.Usage}
		}
		for _, u := range samples {
			xs = append(xs, [3]float64{1, n, n * s})
			ys = append(ys, u.CPU().Seconds())
		}
		ns[r.Hosts], ss[r.StepCount()] = true, true
		f.Cells++
	}
	f.Points = len(ys)
	if len(ns) < 2 || len(ss) < 2 || f.Points <= 3 {
		return f, fmt.Errorf("%s: %d runs over %d host counts and %d step counts: need more than 3 runs, 2 of each", tool, f.Points, len(ns), len(ss))
	}
	// Normal equations: (XᵀX) β = Xᵀy.
	var xtx [3][3]float64
	var xty [3]float64
	for i, x := range xs {
		for j := range 3 {
			xty[j] += x[j] * ys[i]
			for k := range 3 {
				xtx[j][k] += x[j] * x[k]
			}
		}
	}
	inv, ok := invert3(xtx)
	if !ok {
		return f, fmt.Errorf("%s: the runs do not separate the three parts", tool)
	}
	var beta [3]float64
	for j := range 3 {
		for k := range 3 {
			beta[j] += inv[j][k] * xty[k]
		}
	}
	var rss float64
	for i, x := range xs {
		e := ys[i] - (beta[0]*x[0] + beta[1]*x[1] + beta[2]*x[2])
		rss += e * e
	}
	s2 := rss / float64(f.Points-3)
	for j := range 3 {
		f.SE[j] = math.Sqrt(s2 * inv[j][j])
	}
	f.PerRun, f.PerHost, f.PerHostStep = beta[0], beta[1], beta[2]
	return f, nil
}

// invert3 inverts m by its adjugate; false when m is singular.
func invert3(m [3][3]float64) ([3][3]float64, bool) {
	var inv [3][3]float64
	for i := range 3 {
		for j := range 3 {
			// Cofactor of m[j][i] (transposed: the adjugate).
			r0, r1 := (j+1)%3, (j+2)%3
			c0, c1 := (i+1)%3, (i+2)%3
			inv[i][j] = m[r0][c0]*m[r1][c1] - m[r0][c1]*m[r1][c0]
		}
	}
	det := m[0][0]*inv[0][0] + m[0][1]*inv[1][0] + m[0][2]*inv[2][0]
	scale := 0.0
	for i := range 3 {
		for j := range 3 {
			scale = max(scale, math.Abs(m[i][j]))
		}
	}
	if det == 0 || math.Abs(det) < 1e-12*scale*scale*scale {
		return inv, false
	}
	for i := range 3 {
		for j := range 3 {
			inv[i][j] /= det
		}
	}
	return inv, true
}

// FitText renders fits side by side: ms per run, per host and µs per
// host-step, each ± its standard error, and each part's ratio to the
// first fit's (the floor's).
func FitText(fits []CostFit) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-25s %6s %18s %18s %20s\n", "CPU = a + b·N + c·N·steps", "runs", "a ms per run", "b ms per host", "c µs per host-step")
	for _, f := range fits {
		fmt.Fprintf(&b, "%-25s %6d %9.1f ± %-6.1f %9.3f ± %-6.3f %10.1f ± %-6.1f\n", f.Tool, f.Points,
			f.PerRun*1e3, f.SE[0]*1e3, f.PerHost*1e3, f.SE[1]*1e3, f.PerHostStep*1e6, f.SE[2]*1e6)
	}
	if len(fits) > 1 && fits[0].PerRun != 0 && fits[0].PerHost != 0 && fits[0].PerHostStep != 0 {
		for _, f := range fits[1:] {
			fmt.Fprintf(&b, "%s / %s: a %.2fx, b %.2fx, c %.2fx\n", f.Tool, fits[0].Tool,
				f.PerRun/fits[0].PerRun, f.PerHost/fits[0].PerHost, f.PerHostStep/fits[0].PerHostStep)
		}
	}
	return b.String()
}
