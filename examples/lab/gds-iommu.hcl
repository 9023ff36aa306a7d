# gds02 boots with the IOMMU on (intel_iommu=on iommu=pt): gdscheck prints
# 'IOMMU: Pass-through or enabled' and warns; PCIe peer-to-peer traffic then
# goes through the root complex. Otherwise as gds-ready.hcl.

extends = "gds-ready.hcl"

node "gds02" {
  iommu = true
}
