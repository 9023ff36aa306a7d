// Package gdsgpfs is the "gds_gpfs" step module: on a GPUDirect Storage
// client of IBM Storage Scale it reads the settings IBM requires for GDS
// ("Configuring GPUDirect Storage for IBM Storage Scale", 5.1.2 and 5.2
// documentation): verbsGPUDirectStorage=yes, verbsRdma=enable,
// verbsRdmaSend=yes, minReleaseLevel 5.1.2 or later, and verbsPorts naming
// every RDMA device that holds an address of cuFile's rdma_dev_addr_list
// (the devices the gdscheck module maps them to). It judges the values the
// running daemon uses (mmdiag --config -Y), not only the configured ones
// (mmlsconfig -Y): a setting waiting for a restart is not in effect.
//
// It only reads. It does not check the NSD servers' side (their verbsPorts
// on every virtual fabric the clients use), nor verbsRdmaCm, which IBM's
// 5.1.2 page asks to disable and its 5.2 page no longer lists: the value is
// shown, not judged.
package gdsgpfs
