// Package nvmeconnect holds two step modules for NVMe-oF initiators:
// "nvme_connect" (NewConnect) connects a subsystem over one transport
// unless list-subsys shows it already connected over that transport and
// address, and returns its block devices and the transport each path really
// uses; "nvme_disconnect" (NewDisconnect) disconnects a subsystem (all
// controllers, or one transport's) when it is connected.
//
// Both judge the host by its real state (nvme list-subsys -o json, the text
// form for nvme-cli 1.x), never by nvme-cli's exit status alone: connect
// reads the state again after connecting, and disconnect checks the
// controller count nvme-cli reports (nvme-cli exited 1 on success in 2017).
// Neither creates the target; nvmetcli on the target is out of scope.
package nvmeconnect
