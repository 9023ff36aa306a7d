// Package ofed is the "ofed" step module: it runs `ofed_info -s` on each
// host and returns whether MLNX_OFED is installed and which version.
//
// It compares nothing across hosts: a runbook does that with an assert over
// per_host (see docs/modules/ofed.md). Inbox rdma-core hosts have no
// ofed_info; they report installed = false, which is a result, not an error.
package ofed
