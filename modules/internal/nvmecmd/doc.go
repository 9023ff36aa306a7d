// Package nvmecmd holds what the NVMe-oF modules (nvme_discover,
// nvme_connect, nvme_disconnect) share: validating transports, running
// nvme-cli with a JSON-then-text fallback, reading which controllers of a
// subsystem this host has (list-subsys) and which block devices belong to
// it (list), and turning nvme-cli failures and parse errors into errors that
// name the tool and the host.
//
// It never changes a host: connect and disconnect are run by the modules.
// It does not judge results (whether a transport is the right one); the
// modules and the runbook's assertions do.
package nvmecmd
