package gpfs

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// version is the Storage Scale release the simulator claims.
const version = "5.1.9.0"

// start starts the daemon of node name at time t: snapshot of the
// configuration, verbs, TCP and RDMA connections to running peers. It
// reports false when the daemon was already running.
func (s *session) start(name string, t time.Time) bool {
	c := s.c
	n := c.node(name)
	if n == nil || n.Started {
		return false
	}
	m := s.models[name]
	if m != nil && m.Faults.GPFSNoRestart && !s.joining {
		s.logs.at(name, t)
		s.logs.newRun(name)
		s.logs.plain(name, "runmmfs starting")
		s.logs.add(name, "E", "mmfsd initialization failed: Unable to start the GPFS daemon (scenario fault gpfs_no_restart)")
		s.logs.plain(name, "mmfsd: daemon exited")
		return true // the log changed; the daemon stays down
	}
	had := c.hasQuorum()
	n.Started, n.StartedAt, n.Ready = true, t, false
	if !had && c.hasQuorum() {
		c.QuorumAt = t
	}
	n.PID = 4000 + int(t.UnixNano()/1e6%50000) + n.Number*7
	n.Eff, n.How = c.effective(n), map[string]string{}
	for k, v := range n.Eff {
		if v != attrs[k].def {
			n.How[k] = "static"
		}
	}
	n.Verbs, n.Ports, n.Conns, n.Index = false, nil, nil, 0
	l := s.logs
	l.at(name, t)
	l.newRun(name)
	l.plain(name, "runmmfs starting")
	l.raw(name, "Removing old /var/adm/ras/mmfs.log.* files:")
	kernel := "5.14.0"
	if m != nil {
		kernel = m.Kernel
	}
	l.raw(name, "Loading kernel extension from /lib/modules/"+kernel+"/extra . . .")
	l.add(name, "I", "mmfsd initializing. {Version: %s   Built: Oct 25 2023 12:21:35} ...", version)
	l.add(name, "I", "Cleaning old shared memory ...")
	l.add(name, "I", "First pass parsing mmfs.cfg ...")
	l.add(name, "I", "Enabled automated deadlock detection.")
	l.add(name, "I", "Initializing the main process ...")
	s.startVerbs(n)
	l.add(name, "I", "Initializing the cluster manager ...")
	for i := range c.Nodes {
		p := &c.Nodes[i]
		if p.Name == name || !p.Started {
			continue
		}
		l.at(p.Name, t)
		l.add(name, "N", "Connecting to %s %s <c0n%d>:[0]", p.Address, p.Name, p.Number-1)
		l.add(name, "I", "Connected to %s %s <c0n%d>:[0]", p.Address, p.Name, p.Number-1)
		l.add(p.Name, "I", "Accepted and connected to %s %s <c0n%d>:[0]", n.Address, n.Name, n.Number-1)
		s.connect(n, p)
	}
	return true
}

// startVerbs decides whether VERBS RDMA starts on n and which ports it opens.
func (s *session) startVerbs(n *Node) {
	l, name := s.logs, n.Name
	if n.Eff["verbsRdma"] != "enable" {
		return
	}
	m := s.models[name]
	l.add(name, "I", "VERBS RDMA starting with verbsRdmaCm=%s verbsRdmaSend=%s verbsRdmaUseMultiCqThreads=yes verbsRdmaUseCompVectors=yes",
		yesNo(n.Eff["verbsRdmaCm"] == "enable"), n.Eff["verbsRdmaSend"])
	if m == nil || m.OFED == "" {
		l.add(name, "E", "VERBS RDMA library libibverbs.so not found")
		l.add(name, "E", "VERBS RDMA: verbs initialization failed, VERBS RDMA not started")
		return
	}
	l.add(name, "I", "VERBS RDMA library libibverbs.so (version >= 1.1) loaded and initialized.")
	for _, entry := range strings.Fields(n.Eff["verbsPorts"]) {
		vp := parsePort(entry)
		h, ok := m.HCA(vp.Dev)
		if !ok {
			l.add(name, "E", "VERBS RDMA: device %s does not exist, verbsPorts entry %s ignored", vp.Dev, entry)
			continue
		}
		p, ok := h.Port(vp.Port)
		if !ok {
			l.add(name, "E", "VERBS RDMA: device %s port %d does not exist, verbsPorts entry %s ignored", vp.Dev, vp.Port, entry)
			continue
		}
		if !m.PortUsable(vp.Dev, vp.Port) {
			l.add(name, "E", "VERBS RDMA: device %s port %d is not active (state %s, physical state %s), verbsPorts entry %s ignored",
				vp.Dev, vp.Port, p.State, p.PhysState, entry)
			continue
		}
		vp.LinkLayer = p.LinkLayer
		n.Ports = append(n.Ports, vp)
		l.add(name, "I", "VERBS RDMA device %s port %d fabnum %d opened, lid %d, rate %dGbps, link layer %s.",
			vp.Dev, vp.Port, vp.Fabnum, p.LID, p.Rate, p.LinkLayer)
	}
	if len(n.Ports) == 0 {
		l.add(name, "E", "VERBS RDMA: no usable verbsPorts, VERBS RDMA not started")
		return
	}
	if s.pagepoolUnregistrable(n) {
		n.Ports = nil
		return
	}
	n.Verbs = true
	l.add(name, "I", "VERBS RDMA started.")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// parsePort reads a verbsPorts entry dev[/port[/fabnum]]; port defaults to 1.
func parsePort(entry string) VPort {
	f := strings.Split(entry, "/")
	vp := VPort{Dev: f[0], Port: 1}
	if len(f) > 1 {
		vp.Port, _ = strconv.Atoi(f[1])
	}
	if len(f) > 2 {
		vp.Fabnum, _ = strconv.Atoi(f[2])
	}
	return vp
}

// connect sets up RDMA from the starting node a to the running peer b, one
// connection per port of a that shares a fabric (same link layer and
// fabnum) with a port of b. Failures are logged by a only; the pair then
// talks TCP.
func (s *session) connect(a, b *Node) {
	if !a.Verbs || !b.Verbs {
		return
	}
	type pair struct{ l, r VPort }
	var pairs []pair
	for i, lp := range a.Ports {
		var match []VPort
		for _, rp := range b.Ports {
			if rp.LinkLayer == lp.LinkLayer && rp.Fabnum == lp.Fabnum {
				match = append(match, rp)
			}
		}
		if len(match) > 0 {
			pairs = append(pairs, pair{lp, match[i%len(match)]})
		}
	}
	if len(pairs) == 0 {
		return // no common fabric: GPFS does not try
	}
	l, c := s.logs, s.c
	ma, mb := s.models[a.Name], s.models[b.Name]
	fault := ""
	switch {
	case ma != nil && ma.Faults.RDMAConnect != "":
		fault = ma.Faults.RDMAConnect
	case mb != nil && mb.Faults.RDMAConnect != "":
		fault = mb.Faults.RDMAConnect
	case ma == nil || mb == nil || ma.OFED != mb.OFED:
		fault = "mismatch"
	}
	if fault != "" {
		p := pairs[0].l
		c.Cookie++
		idx := a.Index
		a.Index++
		l.add(a.Name, "I", "VERBS RDMA connecting to %s (%s) on %s port %d fabnum %d index %d cookie %d", b.Address, b.Name, p.Dev, p.Port, p.Fabnum, idx, c.Cookie)
		reason, code := "Connection refused", 111
		switch fault {
		case "lossless":
			reason, code = "Connection timed out", 233
		case "mismatch":
			reason, code = "Software caused connection abort", 73
		}
		l.add(a.Name, "E", "VERBS RDMA rdma_connect to %s (%s) on %s port %d failed: %s", b.Address, b.Name, p.Dev, p.Port, reason)
		l.add(a.Name, "E", "VERBS RDMA closed connection to %s (%s) on %s port %d fabnum %d index %d cookie %d error %d", b.Address, b.Name, p.Dev, p.Port, p.Fabnum, idx, c.Cookie, code)
		return
	}
	for _, p := range pairs {
		c.Cookie++
		ia, ib := a.Index, b.Index
		a.Index++
		b.Index++
		a.Conns = append(a.Conns, Conn{Peer: b.Name, Dev: p.l.Dev, Port: p.l.Port, Index: ia, Cookie: c.Cookie})
		b.Conns = append(b.Conns, Conn{Peer: a.Name, Dev: p.r.Dev, Port: p.r.Port, Index: ib, Cookie: c.Cookie})
		l.add(a.Name, "I", "VERBS RDMA connecting to %s (%s) on %s port %d fabnum %d index %d cookie %d", b.Address, b.Name, p.l.Dev, p.l.Port, p.l.Fabnum, ia, c.Cookie)
		l.add(a.Name, "I", "VERBS RDMA connected to %s (%s) on %s port %d fabnum %d sl 0 index %d cookie %d", b.Address, b.Name, p.l.Dev, p.l.Port, p.l.Fabnum, ia, c.Cookie)
		l.add(b.Name, "I", "VERBS RDMA connected to %s (%s) on %s port %d fabnum %d sl 0 index %d cookie %d", a.Address, a.Name, p.r.Dev, p.r.Port, p.r.Fabnum, ib, c.Cookie)
	}
}

// stop shuts the daemon of node name down at time t; peers log the lost
// connections. It reports false when the daemon was not running.
func (s *session) stop(name string, t time.Time) bool {
	c, l := s.c, s.logs
	n := c.node(name)
	if n == nil || !n.Started {
		return false
	}
	l.at(name, t)
	l.add(name, "N", "mmfsd is shutting down.")
	l.add(name, "N", "Reason for shutdown: Normal shutdown")
	l.plain(name, "mmcommon mmfsdown invoked.  Subsystem: mmfs  Status: down")
	for i := range c.Nodes {
		p := &c.Nodes[i]
		if p.Name == name || !p.Started {
			continue
		}
		l.at(p.Name, t)
		for _, cn := range p.Conns {
			if cn.Peer == name {
				l.add(p.Name, "I", "VERBS RDMA disconnected from %s (%s) on %s port %d", n.Address, n.Name, cn.Dev, cn.Port)
			}
		}
		if slices.ContainsFunc(p.Conns, func(cn Conn) bool { return cn.Peer == name }) {
			// a copy: the list may be shared with the memo (Cluster.clone)
			p.Conns = slices.DeleteFunc(slices.Clone(p.Conns), func(cn Conn) bool { return cn.Peer == name })
		}
		l.add(p.Name, "I", "Close connection to %s %s <c0n%d> (Connection reset by peer)", n.Address, n.Name, n.Number-1)
	}
	n.Started, n.Ready, n.PID = false, false, 0
	n.Eff, n.How, n.Verbs, n.Ports, n.Conns = nil, nil, false, nil, nil
	if !c.hasQuorum() {
		for i := range c.Nodes {
			c.Nodes[i].Ready = false
		}
	}
	return true
}

// markReady logs "mmfsd ready" on the started nodes that have quorum and
// have not logged it since they started.
func (s *session) markReady() {
	c := s.c
	if !c.hasQuorum() {
		return
	}
	for i := range c.Nodes {
		n := &c.Nodes[i]
		if !n.Started || n.Ready {
			continue
		}
		n.Ready = true
		s.logs.at(n.Name, c.activeAt(n))
		s.logs.add(n.Name, "N", "mmfsd ready")
		s.logs.plain(n.Name, "mmcommon mmfsup invoked. Parameters: %s %s all", n.Address, n.Address)
	}
}
