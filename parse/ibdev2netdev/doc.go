// Package ibdev2netdev reads the output of MLNX_OFED/DOCA's `ibdev2netdev`
// script, which maps RDMA device ports to network interfaces, in its plain
// form ("mlx5_0 port 1 ==> ib0 (Up)") and its verbose `-v` form (PCI
// address, part number, PSID, board description, firmware and the logical
// port state before the arrow), including SR-IOV virtual functions whose
// part ID is "NA" and whose board description is empty.
//
// Empty output (no RDMA device with a netdev) gives NoDevice; any line that
// is not one of the two forms is a *parse.Error. The package does not judge
// the states it reads.
package ibdev2netdev
