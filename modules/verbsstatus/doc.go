// Package verbsstatus is the "verbs_status" step module: it runs
// `mmfsadm test verbs status` on each node and says whether the GPFS daemon
// started RDMA (the verbsRdma master switch took effect).
//
// It only reads. Whether peers are connected over RDMA is verbs_conn's job;
// why a node did not start RDMA is verbs_diagnose's.
package verbsstatus
