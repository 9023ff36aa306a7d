package nvtopo

import (
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Matrix is the output of nvidia-smi topo -m.
type Matrix struct {
	// NoGPU is true when nvidia-smi reported that it has no GPU or driver
	// to talk to; Message holds its first line.
	NoGPU   bool   `json:"no_gpu,omitempty"`
	Message string `json:"message,omitempty"`
	// Devices are the matrix columns as printed (GPU0.., NIC0.. or mlx5_0..).
	Devices []string `json:"devices"`
	GPUs    []string `json:"gpus"`
	NICs    []string `json:"nics"`
	// NICNames maps a NICn column to its device name from the NIC Legend.
	NICNames map[string]string `json:"nic_names,omitempty"`
	// Relations[row][column] is the cell text: X, PIX, PXB, PHB, NODE, SYS,
	// NV#, ...
	Relations map[string]map[string]string `json:"relations"`
	// Affinity holds the CPU Affinity / NUMA Affinity / GPU NUMA ID columns
	// of the rows that have them (NIC rows usually do not).
	Affinity map[string]Affinity `json:"affinity,omitempty"`
}

// Affinity is the trailing columns of one row ("N/A" kept as printed).
type Affinity struct {
	CPU       string `json:"cpu,omitempty"`
	NUMA      string `json:"numa,omitempty"`
	GPUNUMAID string `json:"gpu_numa_id,omitempty"`
}

var (
	cellRe    = lazyre.New(`^(?:X|[A-Z]+[0-9]*)$`)
	gpuRe     = lazyre.New(`^GPU[0-9]+$`)
	legendRe  = lazyre.New(`^\S+\s*=\s*\S`)
	nicNameRe = lazyre.New(`^(\S+):\s*(\S+)$`)
)

// noGPUPrefixes start the messages nvidia-smi prints instead of a matrix.
var noGPUPrefixes = []string{"NVIDIA-SMI has failed", "No devices were found", "Failed to initialize NVML", "NVML: "}

// ParseTopo reads nvidia-smi topo -m. Cells may be separated by spaces or
// TABs.
func ParseTopo(data []byte) (*Matrix, error) {
	const tool = "nvidia-smi topo -m"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	if i == len(lines) {
		return nil, &parse.Error{Tool: tool, Reason: "empty output"}
	}
	first := strings.TrimSpace(lines[i])
	for _, p := range noGPUPrefixes {
		if strings.HasPrefix(first, p) {
			return &Matrix{NoGPU: true, Message: first, Devices: []string{}, GPUs: []string{}, NICs: []string{}}, nil
		}
	}
	m := &Matrix{GPUs: []string{}, NICs: []string{}, Relations: map[string]map[string]string{}}
	devices, extra := header(strings.Fields(first))
	if len(devices) == 0 || !gpuRe.MatchString(devices[0]) {
		return nil, &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: "expected a header of GPU and NIC columns"}
	}
	m.Devices = devices
	known := map[string]bool{}
	for _, d := range devices {
		known[d] = true
		if gpuRe.MatchString(d) {
			m.GPUs = append(m.GPUs, d)
		} else {
			m.NICs = append(m.NICs, d)
		}
	}
	i++
	for ; i < len(lines); i++ {
		f := strings.Fields(lines[i])
		if len(f) == 0 || f[0] == "Legend:" {
			break
		}
		if !known[f[0]] || m.Relations[f[0]] != nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: "row for a device not in the header, or repeated"}
		}
		if len(f) < 1+len(devices) {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: "fewer cells than columns"}
		}
		row := map[string]string{}
		for k, d := range devices {
			cell := f[1+k]
			if !cellRe.MatchString(cell) {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: "bad relation " + cell}
			}
			row[d] = cell
		}
		m.Relations[f[0]] = row
		if rest := f[1+len(devices):]; len(rest) > 0 {
			var a Affinity
			for k, v := range rest {
				if k >= len(extra) {
					break
				}
				switch extra[k] {
				case "CPU Affinity":
					a.CPU = v
				case "NUMA Affinity":
					a.NUMA = v
				case "GPU NUMA ID":
					a.GPUNUMAID = v
				}
			}
			if m.Affinity == nil {
				m.Affinity = map[string]Affinity{}
			}
			m.Affinity[f[0]] = a
		}
	}
	if len(m.Relations) == 0 {
		return nil, &parse.Error{Tool: tool, Line: i + 1, Reason: "no matrix rows"}
	}
	return m, m.legend(tool, lines, i)
}

// legend reads the legend blocks after the matrix, filling NICNames.
func (m *Matrix) legend(tool string, lines []string, i int) error {
	nic := false
	for ; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		switch {
		case line == "":
		case line == "Legend:":
			nic = false
		case line == "NIC Legend:":
			nic = true
		case nic && nicNameRe.MatchString(line):
			s := nicNameRe.FindStringSubmatch(line)
			if m.NICNames == nil {
				m.NICNames = map[string]string{}
			}
			m.NICNames[s[1]] = s[2]
		case !nic && legendRe.MatchString(line):
		default:
			return &parse.Error{Tool: tool, Line: i + 1, Text: lines[i], Reason: "unexpected line after the matrix"}
		}
	}
	return nil
}

// header splits the header fields into device columns and the trailing
// multi-word columns ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID").
func header(f []string) (devices, extra []string) {
	for k := 0; k < len(f); k++ {
		switch {
		case k+1 < len(f) && f[k+1] == "Affinity":
			extra = append(extra, f[k]+" Affinity")
			k++
		case k+2 < len(f) && f[k] == "GPU" && f[k+1] == "NUMA" && f[k+2] == "ID":
			extra = append(extra, "GPU NUMA ID")
			k += 2
		case len(extra) > 0:
			extra = append(extra, f[k])
		default:
			devices = append(devices, f[k])
		}
	}
	return devices, extra
}
