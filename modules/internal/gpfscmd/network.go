package gpfscmd

import (
	"context"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/gpfs"
)

// NetworkCommand is the read-only command behind Network.
var NetworkCommand = MM("mmdiag", "--network")

// Network runs mmdiag --network on h: the node's TCP connections (and, on
// releases that print it, its RDMA connections) as the daemon sees them, a
// witness of fallback independent of mmfsadm's undocumented format. When
// the daemon is not running d is nil and down says what mmdiag said.
func Network(ctx context.Context, h module.Host) (d *gpfs.NetworkDiag, raw, down string, err error) {
	out, err := Probe(ctx, h, NetworkCommand)
	if err != nil {
		return nil, "", "", err
	}
	if NotInstalled(out) {
		return nil, out.Stdout, "", Failure(h, "mmdiag", out)
	}
	if out.RC != 0 {
		return nil, out.Stdout + out.Stderr, LastLine(out), nil
	}
	d, err = gpfs.ParseMmdiagNetwork([]byte(out.Stdout))
	if err != nil {
		return nil, out.Stdout, "", ParseFailure(h, err)
	}
	return d, out.Stdout, "", nil
}

// TCPPeers returns the hostnames (else destinations) of the connected TCP
// rows of d, once each, in order.
func TCPPeers(d *gpfs.NetworkDiag) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range d.TCP {
		if !strings.EqualFold(c.Status, "connected") {
			continue
		}
		k := c.Hostname
		if k == "" {
			k = c.Destination
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// StatusCommand is the read-only command behind Status.
var StatusCommand = MM("mmfsadm", "test", "verbs", "status")

// Status runs mmfsadm test verbs status on h. When mmfsadm fails (daemon
// down) st is nil and down says why.
func Status(ctx context.Context, h module.Host) (st *gpfs.VerbsStatus, raw, down string, err error) {
	out, err := Probe(ctx, h, StatusCommand)
	if err != nil {
		return nil, "", "", err
	}
	if NotInstalled(out) {
		return nil, out.Stdout, "", Failure(h, "mmfsadm", out)
	}
	if out.RC != 0 {
		return nil, out.Stdout + out.Stderr, LastLine(out), nil
	}
	st, err = gpfs.ParseVerbsStatus([]byte(out.Stdout))
	if err != nil {
		return nil, out.Stdout, "", ParseFailure(h, err)
	}
	return st, out.Stdout, "", nil
}
