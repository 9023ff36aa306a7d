package gputopology

import (
	"context"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse/nvtopo"
)

const command = "nvidia-smi topo -m"

type args struct {
	NICs []string `cty:"nics"`
	ACS  bool     `cty:"acs"`
}

// NewArgs implements module.Arguments: the struct the arguments decode into.
func (*Topology) NewArgs() any { return new(args) }

// Reads implements module.ReadOnly.
func (*Topology) Reads(cty.Value) string { return "reads " + command }

var notFound = lazyre.New(`(?m)(: not found|: command not found|: No such file or directory)\s*$`)

// Apply runs nvidia-smi topo -m and judges the GPU-to-NIC relations.
func (*Topology) Apply(ctx context.Context, req module.ApplyRequest) (module.ApplyResponse, error) {
	resp := module.ApplyResponse{Outputs: cty.NullVal(outputsType)}
	a, err := module.Args[args](req)
	if err != nil {
		return resp, err
	}
	out, err := module.Capture(ctx, req.Host, command)
	resp.RC, resp.Stdout, resp.Stderr = out.RC, out.Stdout, out.Stderr
	if err != nil {
		return resp, err
	}
	var r result
	switch {
	case out.RC == 127 || (out.RC != 0 && notFound.MatchString(out.Stderr)):
		r = empty()
		resp.Message = "nvidia-smi not found: no NVIDIA driver, no GPU"
	default:
		m, err := nvtopo.ParseTopo([]byte(out.Stdout))
		if err != nil {
			return resp, fmt.Errorf("%s on %s: %w", command, req.Host.Name(), err)
		}
		resp.Evidence = map[string]string{command: out.Stdout}
		r = judge(m, a.NICs)
		resp.Message = r.summary(m)
		if a.ACS && r.HasGPU {
			acs, err := checkACS(ctx, req.Host, r, resp.Evidence)
			if err != nil {
				return resp, err
			}
			r.ACSChecked, r.ACSBlocked, r.ACSUnknown = acs.checked, append(r.ACSBlocked, acs.blocked...), acs.unknown
		}
	}
	resp.Outputs, err = module.Encode(r, outputsType)
	return resp, err
}

type near struct {
	GPU      string `cty:"gpu"`
	NIC      string `cty:"nic"`
	Relation string `cty:"relation"`
}

type result struct {
	HasGPU      bool                         `cty:"has_gpu"`
	Matrix      map[string]map[string]string `cty:"matrix"`
	Nearest     []near                       `cty:"nearest"`
	AllNear     bool                         `cty:"all_near"`
	Far         []string                     `cty:"far"`
	NoNIC       []string                     `cty:"no_nic"`
	MissingNICs []string                     `cty:"missing_nics"`
	ACSChecked  bool                         `cty:"acs_checked"`
	ACSBlocked  []string                     `cty:"acs_blocked"`
	ACSUnknown  string                       `cty:"acs_unknown"`
}

func empty() result {
	return result{Matrix: map[string]map[string]string{}, Nearest: []near{}, Far: []string{}, NoNIC: []string{}, MissingNICs: []string{}, ACSBlocked: []string{}}
}

// judge finds each GPU's nearest NIC among those considered.
func judge(m *nvtopo.Matrix, want []string) result {
	r := empty()
	if m.NoGPU || len(m.GPUs) == 0 {
		return r
	}
	r.HasGPU = true
	name := func(col string) string {
		if n, ok := m.NICNames[col]; ok {
			return n
		}
		return col
	}
	for row, cells := range m.Relations {
		named := map[string]string{}
		for col, rel := range cells {
			named[name(col)] = rel
		}
		r.Matrix[name(row)] = named
	}
	nics := m.NICs
	if want != nil {
		nics = nil
		for _, w := range want {
			dev, _, _ := strings.Cut(strings.TrimSpace(w), "/")
			col := ""
			for _, c := range m.NICs {
				if c == dev || name(c) == dev {
					col = c
				}
			}
			if col == "" {
				r.MissingNICs = append(r.MissingNICs, w)
				continue
			}
			nics = append(nics, col)
		}
	}
	r.AllNear = true
	for _, g := range m.GPUs {
		best, bestRank := "", 1<<30
		for _, c := range nics {
			if rk := nvtopo.Rank(m.Relation(g, c)); rk > 0 && rk < bestRank {
				best, bestRank = c, rk
			}
		}
		if best == "" {
			r.NoNIC = append(r.NoNIC, g)
			r.AllNear = false
			continue
		}
		rel := m.Relation(g, best)
		r.Nearest = append(r.Nearest, near{GPU: g, NIC: name(best), Relation: rel})
		// Issue 19.7: a GPU whose nearest NIC is PHB is as far for GDS as
		// one at NODE (traffic through the CPU's host bridge), so it is
		// named with them.
		if rel != "PIX" && rel != "PXB" {
			r.AllNear = false
			r.Far = append(r.Far, g)
		}
	}
	return r
}

func (r result) summary(m *nvtopo.Matrix) string {
	if !r.HasGPU {
		msg := "no GPU"
		if m.Message != "" {
			msg += ": " + m.Message
		}
		return msg
	}
	parts := make([]string, len(r.Nearest))
	for i, n := range r.Nearest {
		parts[i] = n.GPU + "-" + n.NIC + " " + n.Relation
	}
	s := strings.Join(parts, ", ")
	if len(r.NoNIC) > 0 {
		s += "; no NIC for " + strings.Join(r.NoNIC, ", ")
	}
	return s
}
