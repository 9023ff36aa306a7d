package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/hashicorp/hcl/v2"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/lab/model"
)

// NodeName is the name of the node at 1-based index i.
func (s *Scenario) NodeName(i int) string { return fmt.Sprintf("%s%02d", s.Prefix, i) }

// Node resolves the model of the node at 1-based index i of total nodes.
func (s *Scenario) Node(i, total int) (*model.Node, error) {
	n, diags := s.resolve(s.NodeName(i), i, total)
	if diags.HasErrors() {
		return nil, fmt.Errorf("resolve node %s: %w", s.NodeName(i), diags)
	}
	return n, nil
}

type hcaSpec struct {
	model.HCA
	ports []*portSpec
}

type portSpec struct {
	model.Port
	physSet, upSet bool
}

func (s *Scenario) resolve(name string, i, total int) (*model.Node, hcl.Diagnostics) {
	n := &model.Node{
		Name: name, Index: i, Cluster: s.Name, MemoryGiB: 256, CPUs: 32, NUMANodes: 2,
		Kernel: "5.14.0-362.24.1.el9_3.x86_64", OFED: "MLNX_OFED_LINUX-23.10-1.1.9.0",
		NvidiaFS: false, FileSystems: []string{"gpfs"},
		DataAddress: fmt.Sprintf("%s.%d.%d", s.NetPrefix, i/250, i%250+1),
	}
	if i <= s.Servers {
		n.Groups = []string{"gpfs", "nsd_servers", "quorum"}
	} else {
		n.Groups = []string{"gpfs", "clients"}
	}
	hcas := []*hcaSpec{newHCA("mlx5_0", 0), newHCA("mlx5_1", 1)}
	var gpus []*model.GPU
	var diags hcl.Diagnostics
	for _, c := range []*hcl.BodyContent{s.defaults, s.nodeBlocks[name]} {
		if c == nil {
			continue
		}
		diags = append(diags, applyNode(c, n, &hcas, &gpus, c == s.defaults)...)
	}
	for j, h := range hcas {
		h.NodeGUID = 0x0c42a10300000000 | uint64(i)<<12 | uint64(j)<<4
		for _, p := range h.ports {
			if !p.physSet {
				p.PhysState = model.DefaultPhys(p.State, p.LinkLayer)
			}
			if !p.upSet {
				p.NetdevUp = p.State == "Active"
			}
			p.GUID = h.NodeGUID + uint64(p.Num)
			if p.LinkLayer == "InfiniBand" && p.State != "Down" {
				p.LID, p.SMLID = i*8+j*2+p.Num, 1
			}
			h.Ports = append(h.Ports, p.Port)
		}
		n.HCAs = append(n.HCAs, h.HCA)
	}
	for _, g := range gpus {
		n.GPUs = append(n.GPUs, *g)
	}
	n.NVMeoF = s.nodeTarget()
	s.applyGDSCeph(n)
	return n, diags
}

func newHCA(name string, j int) *hcaSpec {
	return &hcaSpec{
		HCA: model.HCA{Name: name, CAType: "MT4123", Firmware: "20.39.2048", BoardID: "MT_0000000223",
			Board:  "MCX653105A-HDAT - ConnectX-6 VPI adapter card, HDR IB (200Gb/s) and 200GbE, single-port QSFP56",
			Serial: fmt.Sprintf("MT2041X0%04d", 1000+j), PCI: fmt.Sprintf("0000:%02x:00.0", 0x17+0x20*j), NUMA: j % 2},
		ports: []*portSpec{newPort(1, "ib"+strconv.Itoa(j))},
	}
}

func newPort(num int, netdev string) *portSpec {
	return &portSpec{Port: model.Port{Num: num, State: "Active", Rate: 200, LinkLayer: "InfiniBand", Netdev: netdev}}
}

func applyNode(c *hcl.BodyContent, n *model.Node, hcas *[]*hcaSpec, gpus *[]*model.GPU, defaults bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	a := attrs(c.Attributes)
	a.num("memory_gib", &n.MemoryGiB, 1, 1<<20, &diags)
	a.num("cpus", &n.CPUs, 1, 4096, &diags)
	a.num("numa_nodes", &n.NUMANodes, 1, 64, &diags)
	a.str("kernel", &n.Kernel, &diags)
	a.str("ofed", &n.OFED, &diags)
	a.boolean("iommu", &n.IOMMU, &diags)
	a.boolean("nvidia_fs", &n.NvidiaFS, &diags)
	if a.str("cufile", &n.Cufile, &diags) && !slices.Contains([]string{"configured", "default", "first_nic", "force_compat", "absent"}, n.Cufile) {
		diags = append(diags, a.diag("cufile", "Invalid value for cufile",
			`cufile must be "configured", "default" (NVIDIA's file as installed: no rdma_dev_addr_list), "first_nic" (only the first RDMA port's address), "force_compat" or "absent".`))
	}
	a.list("filesystems", &n.FileSystems, &diags)
	a.list("acs_switches", &n.ACSSwitches, &diags)
	a.num("nvme_drives", &n.NVMeDrives, 0, 64, &diags)
	a.list("groups", &n.Groups, &diags)
	replacedHCA, replacedGPU := false, false
	seen := map[string]*hcl.Range{}
	for _, b := range c.Blocks {
		key := b.Type + "\x00" + labelOf(b)
		if prev, dup := seen[key]; dup {
			diags = append(diags, dupDiag(b, prev))
			continue
		}
		seen[key] = &b.DefRange
		switch b.Type {
		case "hca":
			if defaults && !replacedHCA { // a defaults block with hca blocks defines the set
				*hcas, replacedHCA = nil, true
			}
			diags = append(diags, applyHCA(b, hcas)...)
		case "gpu":
			if defaults && !replacedGPU {
				*gpus, replacedGPU = nil, true
			}
			diags = append(diags, applyGPU(b, gpus, len(*gpus))...)
		case "faults":
			diags = append(diags, applyFaults(b.Body, &n.Faults)...)
		}
	}
	return diags
}

// overlayElem applies a block that names one element of list (an HCA, a port,
// a GPU) over what the scenario had: with absent it removes the element and
// reports false; otherwise it returns the element, made by mk and appended
// when the list had none that matches.
func overlayElem[T any](list *[]T, matches func(T) bool, absent bool, mk func() T) (T, bool) {
	idx := slices.IndexFunc(*list, matches)
	if absent {
		if idx >= 0 {
			*list = slices.Delete(*list, idx, idx+1)
		}
		var zero T
		return zero, false
	}
	if idx < 0 {
		*list = append(*list, mk())
		idx = len(*list) - 1
	}
	return (*list)[idx], true
}

func applyHCA(b *hcl.Block, hcas *[]*hcaSpec) hcl.Diagnostics {
	c, diags := b.Body.Content(hcaSchema)
	if diags.HasErrors() {
		return diags
	}
	a := attrs(c.Attributes)
	name := b.Labels[0]
	var absent bool
	a.boolean("absent", &absent, &diags)
	h, ok := overlayElem(hcas, func(h *hcaSpec) bool { return h.Name == name }, absent, func() *hcaSpec {
		h := newHCA(name, len(*hcas))
		h.ports = nil
		return h
	})
	if !ok {
		return diags
	}
	a.str("ca_type", &h.CAType, &diags)
	a.str("firmware", &h.Firmware, &diags)
	a.str("board_id", &h.BoardID, &diags)
	a.str("board", &h.Board, &diags)
	a.str("serial", &h.Serial, &diags)
	a.str("pci", &h.PCI, &diags)
	a.num("numa", &h.NUMA, 0, 63, &diags)
	a.str("pcie_switch", &h.PCIeSwitch, &diags)
	seen := map[string]*hcl.Range{}
	for _, pb := range c.Blocks {
		if prev, dup := seen[pb.Labels[0]]; dup {
			diags = append(diags, dupDiag(pb, prev))
			continue
		}
		seen[pb.Labels[0]] = &pb.DefRange
		num, err := strconv.Atoi(pb.Labels[0])
		if err != nil || num < 1 || num > 255 {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid port number",
				Detail: fmt.Sprintf("port label must be a number from 1 to 255; got %q.", pb.Labels[0]), Subject: pb.LabelRanges[0].Ptr()})
			continue
		}
		diags = append(diags, applyPort(pb.Body, h, num)...)
	}
	return diags
}

func applyPort(body hcl.Body, h *hcaSpec, num int) hcl.Diagnostics {
	c, diags := body.Content(portSchema)
	if diags.HasErrors() {
		return diags
	}
	a := attrs(c.Attributes)
	var absent bool
	a.boolean("absent", &absent, &diags)
	p, ok := overlayElem(&h.ports, func(p *portSpec) bool { return p.Num == num }, absent, func() *portSpec { return newPort(num, "") })
	if !ok {
		return diags
	}
	a.str("state", &p.State, &diags, model.PortStates...)
	p.physSet = a.str("physical_state", &p.PhysState, &diags, model.PhysStates...) || p.physSet
	if a.num("rate", &p.Rate, 1, 800, &diags) && !model.ValidRate(p.Rate) {
		diags = append(diags, a.diag("rate", "Invalid value for rate",
			"rate must be one of 10, 14, 20, 25, 40, 50, 56, 100, 200, 400, 800 (Gb/s)."))
	}
	a.str("link_layer", &p.LinkLayer, &diags, model.LinkLayers...)
	a.str("netdev", &p.Netdev, &diags)
	p.upSet = a.boolean("netdev_up", &p.NetdevUp, &diags) || p.upSet
	return diags
}

func applyGPU(b *hcl.Block, gpus *[]*model.GPU, n int) hcl.Diagnostics {
	c, diags := b.Body.Content(gpuSchema)
	if diags.HasErrors() {
		return diags
	}
	a := attrs(c.Attributes)
	name := b.Labels[0]
	var absent bool
	a.boolean("absent", &absent, &diags)
	g, ok := overlayElem(gpus, func(g *model.GPU) bool { return g.Name == name }, absent, func() *model.GPU {
		return &model.GPU{Name: name, Model: "NVIDIA H100 80GB HBM3", NUMA: n % 2}
	})
	if !ok {
		return diags
	}
	a.str("model", &g.Model, &diags)
	a.num("numa", &g.NUMA, 0, 63, &diags)
	a.str("pcie_switch", &g.PCIeSwitch, &diags)
	a.num("nvlinks", &g.NVLinks, 0, 64, &diags)
	a.strMap("pcie", &g.PCIe, &diags, model.Relations...)
	return diags
}

// sizeValue is a GPFS size: digits and an optional K, M, G or T.
var sizeValue = lazyre.New(`^[0-9]+[KMGTkmgt]?$`)

func applyFaults(body hcl.Body, f *model.Faults) hcl.Diagnostics {
	c, diags := body.Content(faultsSchema)
	if diags.HasErrors() {
		return diags
	}
	a := attrs(c.Attributes)
	a.str("rdma_connect", &f.RDMAConnect, &diags, "", "firewall", "lossless")
	a.str("verbs_conn_layout", &f.VerbsConnLayout, &diags, "", "unreadable", "conns_only", "empty")
	if a.str("pagepool_register_limit", &f.PagepoolRegisterLimit, &diags) && f.PagepoolRegisterLimit != "" && !sizeValue.MatchString(f.PagepoolRegisterLimit) {
		diags = append(diags, a.diag("pagepool_register_limit", "Invalid size for pagepool_register_limit",
			fmt.Sprintf(`pagepool_register_limit must be a size like "4G" or "512M"; got %q.`, f.PagepoolRegisterLimit)))
	}
	a.boolean("ssh_down", &f.SSHDown, &diags)
	a.boolean("gpfs_no_restart", &f.GPFSNoRestart, &diags)
	a.duration("handshake_delay", &f.HandshakeDelay, &diags)
	a.duration("drop_after", &f.DropAfter, &diags)
	for _, name := range []string{"drop_on", "hang_on"} {
		dst := &f.DropOn
		if name == "hang_on" {
			dst = &f.HangOn
		}
		if a.str(name, dst, &diags) && *dst != "" {
			if _, err := regexp.Compile(*dst); err != nil {
				diags = append(diags, a.diag(name, "Invalid regular expression for "+name, err.Error()+"."))
			}
		}
	}
	return diags
}
