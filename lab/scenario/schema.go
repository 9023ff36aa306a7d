package scenario

import "github.com/hashicorp/hcl/v2"

func nodeSchema(node bool) *hcl.BodySchema {
	s := &hcl.BodySchema{
		Attributes: []hcl.AttributeSchema{
			{Name: "memory_gib"}, {Name: "cpus"}, {Name: "numa_nodes"}, {Name: "kernel"},
			{Name: "ofed"}, {Name: "iommu"}, {Name: "nvidia_fs"}, {Name: "cufile"}, {Name: "filesystems"}, {Name: "nvme_drives"},
			{Name: "acs_switches"},
		},
		Blocks: []hcl.BlockHeaderSchema{
			{Type: "hca", LabelNames: []string{"name"}},
			{Type: "gpu", LabelNames: []string{"name"}},
			{Type: "faults"},
		},
	}
	if node {
		s.Attributes = append(s.Attributes, hcl.AttributeSchema{Name: "groups"})
	}
	return s
}

var hcaSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "absent"}, {Name: "ca_type"}, {Name: "firmware"}, {Name: "board_id"}, {Name: "board"},
		{Name: "serial"}, {Name: "pci"}, {Name: "numa"}, {Name: "pcie_switch"},
	},
	Blocks: []hcl.BlockHeaderSchema{{Type: "port", LabelNames: []string{"number"}}},
}

var portSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "absent"}, {Name: "state"}, {Name: "physical_state"}, {Name: "rate"},
	{Name: "link_layer"}, {Name: "netdev"}, {Name: "netdev_up"},
}}

var gpuSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "absent"}, {Name: "model"}, {Name: "numa"}, {Name: "pcie_switch"}, {Name: "nvlinks"}, {Name: "pcie"},
}}

var faultsSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "rdma_connect"}, {Name: "ssh_down"}, {Name: "handshake_delay"},
	{Name: "verbs_conn_layout"}, {Name: "pagepool_register_limit"},
	{Name: "drop_on"}, {Name: "drop_after"}, {Name: "hang_on"}, {Name: "gpfs_no_restart"},
}}
