package scenario

import (
	"fmt"
	"math/big"
	"net/netip"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/provadev/prova/lab/model"
)

// The nvmeof_target block describes the scenario's NVMe-oF target (see
// docs/lab-nvmeof.md); without one the default target applies
// (model.DefaultNVMeoFTarget), absent = true removes it.
var nvmeofSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "absent"}, {Name: "nqn"}, {Name: "address"}, {Name: "port"}, {Name: "transports"},
	{Name: "namespaces_gb"}, {Name: "model"}, {Name: "firmware"}, {Name: "rate"}, {Name: "iops"},
}}

func (s *Scenario) decodeNVMeoF(body hcl.Body) hcl.Diagnostics {
	c, diags := body.Content(nvmeofSchema)
	if diags.HasErrors() {
		return diags
	}
	a := attrs(c.Attributes)
	var absent bool
	if a.boolean("absent", &absent, &diags); absent {
		s.target = nil
		return diags
	}
	// Over an extended scenario's target, or the default one.
	t := model.DefaultNVMeoFTarget()
	if s.target != nil {
		cp := *s.target
		cp.Transports = append([]string(nil), s.target.Transports...)
		t = &cp
	}
	if a.str("nqn", &t.NQN, &diags) && !strings.HasPrefix(t.NQN, "nqn.") {
		diags = append(diags, a.diag("nqn", "Invalid value for nqn", `nqn must start with "nqn." (e.g. "nqn.2024-01.dev.prova:lab-target1").`))
	}
	if a.str("address", &t.Address, &diags) {
		if ip, err := netip.ParseAddr(t.Address); err != nil || !ip.Is4() {
			diags = append(diags, a.diag("address", "Invalid value for address", "address must be an IPv4 address (text only, never contacted)."))
		}
	}
	a.num("port", &t.Port, 1, 65535, &diags)
	if a.list("transports", &t.Transports, &diags) {
		for _, tr := range t.Transports {
			if tr != "rdma" && tr != "tcp" {
				diags = append(diags, a.diag("transports", "Invalid value for transports",
					fmt.Sprintf("transports may contain \"rdma\" and \"tcp\"; got %q.", tr)))
			}
		}
		t.Transports = slices.Compact(t.Transports)
	}
	if v, ok := a.value("namespaces_gb", cty.List(cty.Number), &diags); ok && !v.IsNull() {
		t.NamespacesGB = nil
		for _, e := range v.AsValueSlice() {
			var n int64
			acc := big.Above
			if !e.IsNull() {
				n, acc = e.AsBigFloat().Int64()
			}
			if acc != big.Exact || n < 1 || n > 1<<20 {
				diags = append(diags, a.diag("namespaces_gb", "Invalid value for namespaces_gb",
					"namespaces_gb must list whole sizes in GB from 1 to 1048576."))
				break
			}
			t.NamespacesGB = append(t.NamespacesGB, int(n))
		}
		if len(t.NamespacesGB) == 0 {
			diags = append(diags, a.diag("namespaces_gb", "Invalid value for namespaces_gb", "the target needs at least one namespace."))
		}
	}
	a.str("model", &t.Model, &diags)
	if a.str("firmware", &t.Firmware, &diags) && len(t.Firmware) > 8 {
		diags = append(diags, a.diag("firmware", "Invalid value for firmware", "firmware is at most 8 characters (the NVMe FR field)."))
	}
	if a.num("rate", &t.Rate, 0, 800, &diags) && t.Rate != 0 && !model.ValidRate(t.Rate) {
		diags = append(diags, a.diag("rate", "Invalid value for rate",
			"rate must be 0 (no limit) or one of 10, 14, 20, 25, 40, 50, 56, 100, 200, 400, 800 (Gb/s)."))
	}
	a.num("iops", &t.IOPS, 0, 100_000_000, &diags)
	s.target = t
	return diags
}

// Target is the scenario's NVMe-oF target, nil when absent.
func (s *Scenario) Target() *model.NVMeoFTarget { return s.nodeTarget() }

// nodeTarget is a copy of the target for one node's model.
func (s *Scenario) nodeTarget() *model.NVMeoFTarget {
	if s.target == nil {
		return nil
	}
	t := *s.target
	t.Transports = slices.Clone(t.Transports)
	t.NamespacesGB = slices.Clone(t.NamespacesGB)
	return &t
}
