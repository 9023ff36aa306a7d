package gputopology

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/engine/module"
	"github.com/provadev/prova/parse/ibdev2netdev"
	"github.com/provadev/prova/parse/lspci"
)

// acsResult is what the ACS check found.
type acsResult struct {
	checked bool
	blocked []string
	unknown string
}

// checkACS looks, for every GPU whose nearest NIC shares its PCIe switch
// (PIX or PXB), at the switch ports between the two (lspci -vvv -D, the
// GPU by PCI bus order as nvidia-smi numbers them, the NIC's address from
// ibdev2netdev -v): ACS redirecting requests or completions there
// (ACSCtl ReqRedir+ or CmpltRedir+) sends their peer-to-peer traffic up to
// the root complex, so PIX on paper is not PIX in practice (NVIDIA's GDS
// guides: disable ACS on the switches GDS uses).
func checkACS(ctx context.Context, h module.Host, r result, ev map[string]string) (acsResult, error) {
	var a acsResult
	out, err := module.Capture(ctx, h, "lspci -vvv -D")
	if err != nil {
		return a, err
	}
	if out.RC != 0 {
		a.unknown = fmt.Sprintf("lspci -vvv -D failed on %s: %s", h.Name(), module.LastLine(out.Stderr))
		return a, nil
	}
	pci, err := lspci.ParseVerbose([]byte(out.Stdout))
	if err != nil {
		return a, fmt.Errorf("lspci -vvv -D on %s: %w", h.Name(), err)
	}
	ev["lspci -vvv -D"] = out.Stdout
	ib, err := module.Capture(ctx, h, "ibdev2netdev -v")
	if err != nil {
		return a, err
	}
	if ib.RC != 0 {
		a.unknown = fmt.Sprintf("ibdev2netdev -v failed on %s: %s (the NICs' PCI addresses are unknown)", h.Name(), module.LastLine(ib.Stderr))
		return a, nil
	}
	maps, err := ibdev2netdev.Parse([]byte(ib.Stdout))
	if err != nil {
		return a, fmt.Errorf("ibdev2netdev -v on %s: %w", h.Name(), err)
	}
	ev["ibdev2netdev -v"] = ib.Stdout
	nicPCI := map[string]string{}
	for _, m := range maps.Mappings {
		if m.PCI != "" {
			nicPCI[m.Device] = m.PCI
		}
	}
	var gpus []string
	for _, d := range pci.Devices {
		if (d.Class == "3D controller" || d.Class == "VGA compatible controller") && strings.Contains(d.Description, "NVIDIA") {
			gpus = append(gpus, d.Address)
		}
		if d.CapabilitiesDenied {
			a.unknown = "lspci could not read the PCIe capabilities (not root): ACS unknown"
			return a, nil
		}
	}
	a.checked = true
	for _, n := range r.Nearest {
		if n.Relation != "PIX" && n.Relation != "PXB" {
			continue
		}
		i, err := strconv.Atoi(strings.TrimPrefix(n.GPU, "GPU"))
		if err != nil || i >= len(gpus) {
			a.blocked = append(a.blocked, fmt.Sprintf("%s-%s: the GPU is not in lspci (%d NVIDIA devices)", n.GPU, n.NIC, len(gpus)))
			continue
		}
		addr, ok := nicPCI[n.NIC]
		if !ok {
			a.blocked = append(a.blocked, fmt.Sprintf("%s-%s: the NIC's PCI address is not in ibdev2netdev -v", n.GPU, n.NIC))
			continue
		}
		var at []string
		for _, p := range pci.Between(gpus[i], addr) {
			if p.Redirects() {
				at = append(at, p.Address)
			}
		}
		if len(at) > 0 {
			a.blocked = append(a.blocked, fmt.Sprintf("%s-%s: ACS redirects peer-to-peer at %s", n.GPU, n.NIC, strings.Join(at, ", ")))
		}
	}
	return a, nil
}
