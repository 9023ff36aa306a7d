package sim

// CPULoad is the CPU utilisation one CPU shows, in percent; what is left
// to 100 is idle. Benchmark simulators set it while they run; mpstat reads
// it.
type CPULoad struct {
	Usr    float64 `json:"usr"`
	Nice   float64 `json:"nice"`
	Sys    float64 `json:"sys"`
	Iowait float64 `json:"iowait"`
	Irq    float64 `json:"irq"`
	Soft   float64 `json:"soft"`
	Steal  float64 `json:"steal"`
	Guest  float64 `json:"guest"`
	Gnice  float64 `json:"gnice"`
}

// Idle is the rest of the CPU time, never below zero.
func (l CPULoad) Idle() float64 {
	return max(0, 100-(l.Usr+l.Nice+l.Sys+l.Iowait+l.Irq+l.Soft+l.Steal))
}

// LoadState is the node's "load" state file: a load for every CPU, with
// per-CPU exceptions by CPU number.
type LoadState struct {
	All    CPULoad         `json:"all"`
	PerCPU map[int]CPULoad `json:"per_cpu,omitempty"`
}

// CPU is the load of one CPU.
func (s LoadState) CPU(i int) CPULoad {
	if l, ok := s.PerCPU[i]; ok {
		return l
	}
	return s.All
}

// Load reads the node's load state; a node nobody loaded is idle.
func (e *Env) Load() (LoadState, error) {
	var s LoadState
	_, err := e.Read(e.NodeState("load"), &s)
	return s, err
}

// SetLoad replaces the node's load state.
func (e *Env) SetLoad(s LoadState) error {
	var cur LoadState
	return e.Update(e.NodeState("load"), &cur, func() (bool, error) { cur = s; return true, nil })
}
