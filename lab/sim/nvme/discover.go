package nvme

import (
	"fmt"
	"io"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
)

// record is one discovery log entry.
type record struct {
	trtype, subtype, nqn, traddr, trsvcid string
	portid                                int
}

func discover(e *sim.Env, n *model.Node) int {
	a, ok := fabricArgs(e, "discover", false)
	if !ok {
		return 1
	}
	if f := reach(n, a.transport, a.traddr, a.trsvcid, ""); f != nil {
		f.print(e.Stderr, true)
		return 1
	}
	t := n.NVMeoF
	portid := 1
	if a.transport == "tcp" {
		portid = 2
	}
	recs := []record{
		{trtype: a.transport, subtype: "current discovery subsystem", nqn: model.DiscoveryNQN, traddr: t.Address, trsvcid: a.trsvcid, portid: portid},
		{trtype: a.transport, subtype: "nvme subsystem", nqn: t.NQN, traddr: t.Address, trsvcid: a.trsvcid, portid: portid},
	}
	s, err := ReadState(e)
	if err != nil {
		return e.Fail(err)
	}
	ctrl, _ := freeInstances(n, s) // the temporary discovery controller
	const genctr = 2
	if a.format == "json" {
		discoverJSON(e.Stdout, fmt.Sprintf("nvme%d", ctrl), genctr, recs)
		return 0
	}
	w := e.Stdout
	fmt.Fprintf(w, "\nDiscovery Log Number of Records %d, Generation counter %d\n", len(recs), genctr)
	for i, r := range recs {
		fmt.Fprintf(w, "=====Discovery Log Entry %d======\n", i)
		fmt.Fprintf(w, "trtype:  %s\nadrfam:  ipv4\nsubtype: %s\ntreq:    not specified, sq flow control disable supported\n", r.trtype, r.subtype)
		fmt.Fprintf(w, "portid:  %d\ntrsvcid: %s\nsubnqn:  %s\ntraddr:  %s\neflags:  none\n", r.portid, r.trsvcid, r.nqn, r.traddr)
		if r.trtype == "rdma" {
			fmt.Fprint(w, "rdma_prtype: not specified\nrdma_qptype: connected\nrdma_cms:    rdma-cm\nrdma_pkey: 0x0000\n")
		} else {
			fmt.Fprint(w, "sectype: none\n")
		}
	}
	return 0
}

// discoverJSON prints the 2.x JSON (json-c pretty style: two-space indent,
// no space around the colon).
func discoverJSON(w io.Writer, dev string, genctr int, recs []record) {
	var b strings.Builder
	fmt.Fprintf(&b, "{\n  \"device\":%q,\n  \"genctr\":%d,\n  \"records\":[\n", dev, genctr)
	for i, r := range recs {
		fields := []string{
			kv("trtype", r.trtype), kv("adrfam", "ipv4"), kv("subtype", r.subtype),
			kv("treq", "not specified, sq flow control disable supported"),
			fmt.Sprintf("\"portid\":%d", r.portid), kv("trsvcid", r.trsvcid), kv("subnqn", r.nqn),
			kv("traddr", r.traddr), kv("eflags", "none"),
		}
		if r.trtype == "rdma" {
			fields = append(fields, kv("rdma_prtype", "not specified"), kv("rdma_qptype", "connected"),
				kv("rdma_cms", "rdma-cm"), "\"rdma_pkey\":0")
		} else {
			fields = append(fields, kv("sectype", "none"))
		}
		b.WriteString("    {\n      " + strings.Join(fields, ",\n      ") + "\n    }")
		if i < len(recs)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]\n}\n")
	io.WriteString(w, b.String())
}

func kv(k, v string) string { return fmt.Sprintf("%q:%q", k, v) }
