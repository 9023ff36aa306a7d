// Package cephmessenger is the "ceph_messenger" step module: it reads the
// effective Ceph messenger settings (ms_type, ms_cluster_type,
// ms_public_type) of each host from ceph.conf ([global] and daemon
// sections, "ms type" written with spaces, # and ; comments) or from the
// monitors' configuration database (ceph config get), and guards against
// the RDMA messenger: when any of them is async+rdma, in any section or in
// the settings a runbook plans to write (planned_settings), the step fails
// with the reason, unless waived with a written justification.
//
// Why a guard and not a check: Ceph's async+rdma backend has been
// experimental for years, mainstream deployments use TCP, documentation is
// thin, upgrades break it and the community cannot help, and the gain is
// small because Ceph's latency sits in the OSD path and BlueStore, not the
// network stack. Want low latency? Change the storage, not Ceph's network
// stack. The module only reads; it never changes ceph.conf.
package cephmessenger
