package nvmediscover

import "github.com/provadev/prova/engine/module"

// Doc documents the module.
func (*Discover) Doc() module.Doc {
	return module.Doc{
		Summary: "Runs nvme discover against an NVMe-oF target over one transport and returns the discovery log records and subsystem NQNs. A failed discovery (connection refused, no RDMA route) fails the step with the reason. Read-only.",
		Args: map[string]string{
			"transport":     "Fabrics transport: \"rdma\" or \"tcp\" (required).",
			"address":       "Target address (traddr), e.g. \"10.68.20.10\" (required).",
			"port":          "Target port (trsvcid). Default 4420.",
			"fallback_port": "TCP only: when port offers nothing (refused, or no subsystem), try the discovery here too. Default 8009 (the IANA NVMe-oF discovery port); 0 disables.",
			"host_traddr":   "Local address to connect from (nvme discover -w).",
		},
		Outputs: map[string]string{
			"records":    "Every discovery log entry: {trtype, adrfam, subtype, treq, portid, trsvcid, subnqn, traddr}. Connect to a subsystem at its record's traddr and trsvcid.",
			"port":       "The port the discovery answered on (port, or fallback_port).",
			"subsystems": "NQNs of the entries whose subtype is \"nvme subsystem\" (not discovery controllers or referrals).",
		},
		Example: `step "nvme_discover" "discover_rdma" {
  hosts     = var.initiator
  transport = "rdma"
  address   = var.target_address
}

step "assert" "target_offers_rdma" {
  hosts         = var.initiator
  condition     = contains(step.discover_rdma.subsystems, var.nqn)
  error_message = "${var.nqn} is not offered over RDMA"
}`,
	}
}
