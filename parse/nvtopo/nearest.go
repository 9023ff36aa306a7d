package nvtopo

import (
	"strconv"
	"strings"
)

// Rank orders the PCIe relations from nearest to farthest: X 0, PIX 1,
// PXB 2, PHB 3, NODE 4, SYS (and the older SOC) 5. NV# (NVLink, between
// GPUs only) ranks -1; anything else 99.
func Rank(rel string) int {
	switch rel {
	case "X":
		return 0
	case "PIX":
		return 1
	case "PXB":
		return 2
	case "PHB":
		return 3
	case "NODE":
		return 4
	case "SYS", "SOC":
		return 5
	}
	if n, ok := strings.CutPrefix(rel, "NV"); ok {
		if _, err := strconv.Atoi(n); err == nil {
			return -1
		}
	}
	return 99
}

// GPUNIC is the nearest NIC of one GPU.
type GPUNIC struct {
	GPU string `json:"gpu"`
	// NIC is the RDMA device name (from the NIC Legend when the column is
	// NICn, else the column name); Column the matrix column.
	NIC      string `json:"nic"`
	Column   string `json:"column"`
	Relation string `json:"relation"`
}

// NearestNICs returns, for each GPU in column order, the NIC with the
// lowest Rank; ties go to the NIC printed first. It is empty when the matrix
// has no NIC.
func (m *Matrix) NearestNICs() []GPUNIC {
	out := []GPUNIC{}
	if len(m.NICs) == 0 {
		return out
	}
	for _, g := range m.GPUs {
		best := GPUNIC{GPU: g}
		bestRank := 1 << 30
		for _, n := range m.NICs {
			rel := m.Relation(g, n)
			if rel == "" {
				continue
			}
			if r := Rank(rel); r < bestRank {
				best.Column, best.Relation, bestRank = n, rel, r
			}
		}
		if best.Column == "" {
			continue
		}
		best.NIC = m.nicName(best.Column)
		out = append(out, best)
	}
	return out
}

// Relation returns the cell relating a and b ("" when unknown). Devices are
// named as in the header (GPU0, NIC0, mlx5_0) or, for NICn columns, by their
// NIC Legend name (mlx5_0).
func (m *Matrix) Relation(a, b string) string {
	a, b = m.column(a), m.column(b)
	if r := m.Relations[a][b]; r != "" {
		return r
	}
	return m.Relations[b][a]
}

func (m *Matrix) column(name string) string {
	if _, ok := m.Relations[name]; ok {
		return name
	}
	for col, dev := range m.NICNames {
		if dev == name {
			return col
		}
	}
	return name
}

func (m *Matrix) nicName(col string) string {
	if n, ok := m.NICNames[col]; ok {
		return n
	}
	return col
}
