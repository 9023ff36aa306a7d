// Package rdmalink reads iproute2's `rdma link show` in its text form
// ("link mlx5_0/1 state ACTIVE physical_state LINK_UP netdev ens1f0np0", with
// the subnet_prefix/lid/sm_lid/lmc pairs of InfiniBand ports and any column
// padding) and its JSON form (`rdma -j [-p] link show`). Parse tells the two
// apart by the first character.
//
// When the kernel has no RDMA support loaded, rdma prints "Failed to open
// NETLINK_RDMA socket" as plain text even with -j; that, and empty output,
// give a Result with NoDevice. Lines that are neither a link line nor an
// indented detail line are a *parse.Error.
package rdmalink
