// Package gpfsinv asks a GPFS cluster for its nodes: it runs mmlscluster,
// mmlsnodeclass --all and mmlsnsd on the admin node of a gpfs_cluster
// inventory source (read-only commands), reads them with the parsers of
// parse/gpfs and turns them into an inventory.GPFSCluster (Ask); it keeps
// the last answer of every admin node in the record directory and decides
// when that cached copy may stand in for asking (Get).
//
// It does not connect by itself (the caller hands it a module.Host, one
// SSH connection reused for the three commands), does not merge the nodes
// into an inventory (inventory.WithGPFS does) and never changes anything
// on the cluster.
package gpfsinv
