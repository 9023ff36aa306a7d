# gds02's PCIe switch sw1 (GPU2 and mlx5_1) has ACS on its downstream
# ports (ACSCtl ReqRedir+ CmpltRedir+): nvidia-smi topo -m still shows PIX,
# but every peer-to-peer transfer between GPU2 and mlx5_1 goes up to the
# root complex (issue 19.6). Otherwise as gds-ready.hcl.

extends = "gds-ready.hcl"

node "gds02" {
  acs_switches = ["sw1"]
}
