package nvme

import (
	"crypto/sha1"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// Ctrl is one connected fabric controller of a node.
type Ctrl struct {
	Instance  int    `json:"instance"` // nvmeN
	Subsys    int    `json:"subsys"`   // nvme-subsysN; block devices are nvme<Subsys>n<NSID>
	NQN       string `json:"nqn"`
	Transport string `json:"transport"` // rdma or tcp
	Traddr    string `json:"traddr"`
	Trsvcid   string `json:"trsvcid"`
	SrcAddr   string `json:"src_addr,omitempty"`
}

// State is the node's "nvme" state file: its fabric controllers.
type State struct {
	Ctrls []Ctrl `json:"ctrls"`
}

const stateName = "nvme"

// ReadState reads the node's fabric controllers.
func ReadState(e *sim.Env) (State, error) {
	var s State
	_, err := e.Read(e.NodeState(stateName), &s)
	return s, err
}

// Namespace is one namespace of a subsystem as the node sees it.
type Namespace struct {
	NSID      int
	SizeBytes int64
	UsedBytes int64
}

// Subsystem is a subsystem with its paths (controllers), local or remote.
type Subsystem struct {
	Instance   int
	NQN        string
	Model      string
	Serial     string
	Firmware   string
	Namespaces []Namespace
	Paths      []Path
}

// Path is one controller of a subsystem.
type Path struct {
	Instance  int
	Transport string // pcie, tcp, rdma
	Address   string // as sysfs shows it
}

// Device is a namespace block device and how it is reached.
type Device struct {
	Path      string // /dev/nvme1n1
	Name      string // nvme1n1
	Transport string // pcie, tcp or rdma (the first path)
	SizeBytes int64
}

const localModel = "SAMSUNG MZQL23T8HCLS-00A07"

func localSerial(n *model.Node, i int) string {
	return fmt.Sprintf("S64HNE0R%04d%02d", 1000+n.Index, i)
}

// Subsystems lists the node's subsystems in instance order: local drives,
// then the fabric subsystems of its controllers.
func Subsystems(n *model.Node, s State) []Subsystem {
	var out []Subsystem
	for i := 0; i < n.NVMeDrives; i++ {
		sn := localSerial(n, i)
		size := int64(3840755982336)
		out = append(out, Subsystem{Instance: i, Model: localModel, Serial: sn, Firmware: "GDC5602Q",
			NQN:        fmt.Sprintf("nqn.2014.08.org.nvmexpress:144d144d%-20s%s", sn, localModel),
			Namespaces: []Namespace{{NSID: 1, SizeBytes: size, UsedBytes: size / 50}},
			Paths:      []Path{{Instance: i, Transport: "pcie", Address: fmt.Sprintf("0000:%02x:00.0", 0x41+i)}}})
	}
	bySub := map[int]*Subsystem{}
	var order []int
	for _, c := range s.Ctrls {
		sub, ok := bySub[c.Subsys]
		if !ok {
			sub = remoteSubsystem(n, c)
			bySub[c.Subsys] = sub
			order = append(order, c.Subsys)
		}
		addr := "traddr=" + c.Traddr + ",trsvcid=" + c.Trsvcid
		if c.SrcAddr != "" {
			addr += ",src_addr=" + c.SrcAddr
		}
		sub.Paths = append(sub.Paths, Path{Instance: c.Instance, Transport: c.Transport, Address: addr})
	}
	sort.Ints(order)
	for _, i := range order {
		out = append(out, *bySub[i])
	}
	return out
}

func remoteSubsystem(n *model.Node, c Ctrl) *Subsystem {
	sub := &Subsystem{Instance: c.Subsys, NQN: c.NQN, Model: "Linux", Firmware: "5.14.0-3", Serial: serialOf(c.NQN)}
	t := n.NVMeoF
	if t != nil && t.NQN == c.NQN {
		sub.Model, sub.Firmware = t.Model, t.Firmware
		for i, gb := range t.NamespacesGB {
			size := int64(gb) * 1_000_000_000 / 512 * 512
			sub.Namespaces = append(sub.Namespaces, Namespace{NSID: i + 1, SizeBytes: size, UsedBytes: size})
		}
	}
	return sub
}

// serialOf is the random-looking serial a Linux nvmet subsystem reports.
func serialOf(nqn string) string {
	h := sha1.Sum([]byte(nqn))
	return fmt.Sprintf("%x", h[:8])
}

// Devices lists the node's namespace block devices.
func Devices(n *model.Node, s State) []Device {
	var out []Device
	for _, sub := range Subsystems(n, s) {
		for _, ns := range sub.Namespaces {
			name := fmt.Sprintf("nvme%dn%d", sub.Instance, ns.NSID)
			out = append(out, Device{Path: "/dev/" + name, Name: name, Transport: sub.Paths[0].Transport, SizeBytes: ns.SizeBytes})
		}
	}
	return out
}

// Lookup finds the simulated NVMe namespace at path (/dev/nvme1n1 or
// nvme1n1) on the env's node.
func Lookup(e *sim.Env, path string) (*Device, bool, error) {
	n, err := e.Model()
	if err != nil {
		return nil, false, err
	}
	s, err := ReadState(e)
	if err != nil {
		return nil, false, err
	}
	name := strings.TrimPrefix(path, "/dev/")
	for _, d := range Devices(n, s) {
		if d.Name == name {
			return &d, true, nil
		}
	}
	return nil, false, nil
}

// hostNQN and hostID are the node's /etc/nvme/hostnqn and hostid.
func hostID(n *model.Node) string {
	h := sha1.Sum([]byte("prova-lab-host:" + n.Cluster + "/" + n.Name))
	x := fmt.Sprintf("%x", h[:16])
	return x[0:8] + "-" + x[8:12] + "-4" + x[13:16] + "-8" + x[17:20] + "-" + x[20:32]
}

func hostNQN(n *model.Node) string { return "nqn.2014-08.org.nvmexpress:uuid:" + hostID(n) }

// syncDev makes the node's /dev entries match its subsystems: every
// controller nvmeN and every namespace nvmeXnY of a fabric subsystem.
func syncDev(e *sim.Env, n *model.Node, before, after State) error {
	dir := filepath.Join(e.Root(), "dev")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("node /dev: %w", err)
	}
	names := func(s State) map[string]bool {
		m := map[string]bool{}
		for _, sub := range Subsystems(n, s) {
			if sub.Paths[0].Transport == "pcie" {
				continue
			}
			for _, p := range sub.Paths {
				m[fmt.Sprintf("nvme%d", p.Instance)] = true
			}
			for _, ns := range sub.Namespaces {
				m[fmt.Sprintf("nvme%dn%d", sub.Instance, ns.NSID)] = true
			}
		}
		return m
	}
	old, cur := names(before), names(after)
	for name := range old {
		if !cur[name] {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("node /dev: %w", err)
			}
		}
	}
	for name := range cur {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			return fmt.Errorf("node /dev: %w", err)
		}
	}
	return e.MarkChanged("nodes/" + e.Node + "/root/dev")
}
