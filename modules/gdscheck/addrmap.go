package gdscheck

import (
	"context"
	"fmt"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/ibdev2netdev"
	"github.com/provadev/prova/parse/iproute2"
)

// mapAddresses finds the RDMA ports that hold the addresses of cuFile's
// rdma_dev_addr_list: ip -o addr show maps each address to its netdev,
// ibdev2netdev the netdev to device/port. These are the NICs cuFile will
// use, so the GPU topology is judged against them (issue 19.7) and GPFS's
// verbsPorts must name them (IBM's GDS rule). A host without ip or
// ibdev2netdev leaves every address unmapped, with the reason.
func mapAddresses(ctx context.Context, h module.Host, addrs []string, ev map[string]string) (devices, unmapped []string, err error) {
	devices, unmapped = []string{}, []string{}
	ipOut, err := module.Capture(ctx, h, "ip -o addr show")
	if err != nil {
		return nil, nil, err
	}
	if ipOut.RC != 0 {
		for _, a := range addrs {
			unmapped = append(unmapped, fmt.Sprintf("%s: ip -o addr show failed on %s: %s", a, h.Name(), module.LastLine(ipOut.Stderr)))
		}
		return devices, unmapped, nil
	}
	ip, err := iproute2.ParseAddr([]byte(ipOut.Stdout))
	if err != nil {
		return nil, nil, fmt.Errorf("ip -o addr show on %s: %w", h.Name(), err)
	}
	ibOut, err := module.Capture(ctx, h, "ibdev2netdev")
	if err != nil {
		return nil, nil, err
	}
	var ib *ibdev2netdev.Result
	if ibOut.RC == 0 {
		if ib, err = ibdev2netdev.Parse([]byte(ibOut.Stdout)); err != nil {
			return nil, nil, fmt.Errorf("ibdev2netdev on %s: %w", h.Name(), err)
		}
		ev["ibdev2netdev"] = ibOut.Stdout
	}
	ev["ip -o addr show"] = ipOut.Stdout
	seen := map[string]bool{}
	for _, a := range addrs {
		netdev := ip.Interface(a)
		switch {
		case netdev == "":
			unmapped = append(unmapped, a+": on no interface of "+h.Name())
			continue
		case ib == nil:
			unmapped = append(unmapped, fmt.Sprintf("%s: on %s, but ibdev2netdev failed: %s", a, netdev, module.LastLine(ibOut.Stderr)))
			continue
		}
		found := false
		for _, m := range ib.Mappings {
			if m.Netdev == netdev {
				p := fmt.Sprintf("%s/%d", m.Device, m.Port)
				if !seen[p] {
					devices = append(devices, p)
					seen[p] = true
				}
				found = true
			}
		}
		if !found {
			unmapped = append(unmapped, fmt.Sprintf("%s: on %s, not an RDMA netdev", a, netdev))
		}
	}
	return devices, unmapped, nil
}
