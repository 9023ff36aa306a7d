// Package iproute2 reads `ip -o addr show` (one line per address, as
// iproute2 prints it with -o): which interface holds which address. prova
// uses it to map the addresses cuFile's rdma_dev_addr_list names to the
// netdevs, and through ibdev2netdev to the RDMA devices. It does not read
// the multi-line `ip addr` form, links, routes or JSON (-j).
package iproute2
