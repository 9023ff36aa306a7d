package nvme

import (
	"fmt"
	"io"
	"strconv"
	"syscall"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// fabricErr is a failed write to /dev/nvme-fabrics: the kernel's errno
// and libnvme's reading of it.
type fabricErr struct {
	errno syscall.Errno
}

// libnvmeText is nvme_strerror() of libnvme 1.3 for a connect failure.
func (f fabricErr) libnvmeText() string {
	switch f.errno {
	case syscall.EINVAL:
		return "invalid arguments/configuration"
	case syscall.ENODEV:
		return "invalid interface"
	case syscall.ECONNREFUSED:
		return "connection refused"
	case syscall.EADDRINUSE:
		return "hostnqn already in use"
	}
	return "failed to write to nvme-fabrics device"
}

func (f fabricErr) print(w io.Writer, discover bool) {
	fmt.Fprintf(w, "Failed to write to /dev/nvme-fabrics: %s\n", errText(f.errno))
	if discover {
		fmt.Fprintf(w, "failed to add controller, error %s\n", f.libnvmeText())
		return
	}
	fmt.Fprintf(w, "could not add new controller: %s\n", f.libnvmeText())
}

// errText is strerror() as glibc spells it (Go's texts are lower case).
func errText(e syscall.Errno) string {
	s := e.Error()
	return string(s[0]-'a'+'A') + s[1:]
}

// reach decides whether a controller of transport tr to addr:port can be
// created from node n (nqn is "" for the discovery controller).
func reach(n *model.Node, tr, addr, port, nqn string) *fabricErr {
	fail := func(e syscall.Errno) *fabricErr { return &fabricErr{e} }
	switch tr {
	case "rdma":
		if n.OFED == "" {
			return fail(syscall.EINVAL) // nvme-rdma not loaded: "no handler found for transport rdma"
		}
		if !n.HasRDMA() {
			return fail(syscall.ENODEV)
		}
		if _, _, ok := DataPort(n, "rdma"); !ok {
			return fail(syscall.ENETUNREACH)
		}
		if f := n.Faults.RDMAConnect; f != "" && f != "lossless" {
			return fail(syscall.ETIMEDOUT)
		}
	case "tcp":
	default:
		return fail(syscall.EINVAL)
	}
	t := n.NVMeoF
	if t == nil || t.Address != addr {
		return fail(syscall.ETIMEDOUT)
	}
	if port != strconv.Itoa(t.Port) || !t.Offers(tr) {
		if tr == "rdma" {
			return fail(syscall.ECONNRESET) // RDMA CM reject: no listener for that service ID
		}
		return fail(syscall.ECONNREFUSED)
	}
	if nqn != "" && nqn != t.NQN {
		return fail(syscall.EIO)
	}
	return nil
}

// srcAddr is the local address a TCP controller reports.
func srcAddr(n *model.Node, tr string) string {
	if tr != "tcp" {
		return ""
	}
	return n.DataAddress
}

// connectArgs are the options of connect and discover after validation.
type connectArgs struct {
	transport, traddr, trsvcid, nqn, format string
}

func fabricArgs(e *sim.Env, cmd string, needNQN bool) (*connectArgs, bool) {
	vals, _, err := parseOpts(e.Args[1:], fabricOpts)
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s: %v\n", cmd, err)
		return nil, false
	}
	a := &connectArgs{transport: vals["transport"], traddr: vals["traddr"], trsvcid: vals["trsvcid"],
		nqn: vals["nqn"], format: vals["output-format"]}
	if a.format == "" {
		a.format = "normal"
	}
	for _, req := range []struct{ val, name string }{
		{a.nqn, "[--nqn | -n]"}, {a.transport, "[--transport | -t]"}, {a.traddr, "[--traddr | -a]"},
	} {
		if req.val == "" && (needNQN || req.name != "[--nqn | -n]") {
			fmt.Fprintf(e.Stderr, "required argument %s not specified\n", req.name)
			return nil, false
		}
	}
	if a.format != "normal" && a.format != "json" {
		fmt.Fprintf(e.Stderr, "Invalid output format: %s\n", a.format)
		return nil, false
	}
	if a.trsvcid == "" {
		a.trsvcid = "4420"
	}
	return a, true
}

// freeInstances returns the lowest free controller and subsystem numbers.
func freeInstances(n *model.Node, s State) (ctrl, subsys int) {
	usedC, usedS := map[int]bool{}, map[int]bool{}
	for i := 0; i < n.NVMeDrives; i++ {
		usedC[i], usedS[i] = true, true
	}
	for _, c := range s.Ctrls {
		usedC[c.Instance], usedS[c.Subsys] = true, true
	}
	for usedC[ctrl] {
		ctrl++
	}
	for usedS[subsys] {
		subsys++
	}
	return ctrl, subsys
}

func connect(e *sim.Env, n *model.Node) int {
	a, ok := fabricArgs(e, "connect", true)
	if !ok {
		return 1
	}
	if f := reach(n, a.transport, a.traddr, a.trsvcid, a.nqn); f != nil {
		f.print(e.Stderr, false)
		return 1
	}
	var s State
	var before State
	var name string
	already := false
	err := e.Update(e.NodeState(stateName), &s, func() (bool, error) {
		before = State{Ctrls: append([]Ctrl(nil), s.Ctrls...)}
		subsys := -1
		for _, c := range s.Ctrls {
			if c.NQN == a.nqn && c.Transport == a.transport && c.Traddr == a.traddr && c.Trsvcid == a.trsvcid {
				already = true
				return false, nil
			}
			if c.NQN == a.nqn {
				subsys = c.Subsys // a second path joins the subsystem
			}
		}
		inst, free := freeInstances(n, s)
		if subsys < 0 {
			subsys = free
		}
		s.Ctrls = append(s.Ctrls, Ctrl{Instance: inst, Subsys: subsys, NQN: a.nqn, Transport: a.transport,
			Traddr: a.traddr, Trsvcid: a.trsvcid, SrcAddr: srcAddr(n, a.transport)})
		name = fmt.Sprintf("nvme%d", inst)
		return true, nil
	})
	if err != nil {
		return e.Fail(err)
	}
	if already {
		fmt.Fprintln(e.Stderr, "already connected")
		return 1
	}
	if err := syncDev(e, n, before, s); err != nil {
		return e.Fail(err)
	}
	fmt.Fprintf(e.Stdout, "connecting to device: %s\n", name)
	return 0
}

func disconnect(e *sim.Env, n *model.Node) int {
	vals, _, err := parseOpts(e.Args[1:], fabricOpts)
	if err != nil {
		fmt.Fprintf(e.Stderr, "disconnect: %v\n", err)
		return 1
	}
	nqn, dev := vals["nqn"], vals["device"]
	if nqn == "" && dev == "" {
		fmt.Fprintln(e.Stderr, "Neither device name [--device | -d] nor NQN [--nqn | -n] provided")
		return 1
	}
	var s, before State
	removed := 0
	err = e.Update(e.NodeState(stateName), &s, func() (bool, error) {
		before = State{Ctrls: append([]Ctrl(nil), s.Ctrls...)}
		kept := s.Ctrls[:0]
		for _, c := range s.Ctrls {
			if nqn != "" && c.NQN == nqn || dev != "" && dev == fmt.Sprintf("nvme%d", c.Instance) {
				removed++
				continue
			}
			kept = append(kept, c)
		}
		s.Ctrls = kept
		return removed > 0, nil
	})
	if err != nil {
		return e.Fail(err)
	}
	if removed > 0 {
		if err := syncDev(e, n, before, s); err != nil {
			return e.Fail(err)
		}
	}
	if nqn != "" {
		fmt.Fprintf(e.Stdout, "NQN:%s disconnected %d controller(s)\n", nqn, removed)
	}
	return 0
}
