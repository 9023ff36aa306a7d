// Package verbsconn is the "verbs_conn" step module: the key check of a
// GPFS verbsRdma deployment. On each node it reads `mmfsadm test verbs
// conn` (this node's RDMA connections) and `mmlscluster` (every node's
// daemon name and address) and lists the expected peers that have no
// connected RDMA entry: those talk to this node over TCP, silently.
//
// Peers are matched by address or by name (short names match long ones).
// The node itself is found in mmlscluster by its inventory name, else by
// the names and addresses `hostname; hostname -I` prints, so an inventory
// that names hosts differently from GPFS works. The module only reads and
// does not explain a missing peer (verbs_diagnose does).
package verbsconn
