package gpfs

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/provadev/prova/lab/sim"
)

// FileSystem is the lab's one GPFS file system, built on the NSDs.
const FileSystem = "gpfs0"

// simNSD is one NSD of the lab: its server list, primary first.
type simNSD struct {
	name    string
	servers []string
}

// nsds derives the NSDs from the nodes in group nsd_servers: NSD k is
// served by server k (primary) and server k+1 (backup), round the list,
// so that every server is the backup of the one before it. One server
// alone serves one NSD; no NSD server, no NSD (and no file system).
func (c *Cluster) nsds() []simNSD {
	var servers []string
	for _, n := range c.Nodes {
		if slices.Contains(n.Groups, "nsd_servers") {
			servers = append(servers, n.Name)
		}
	}
	out := make([]simNSD, len(servers))
	for k, s := range servers {
		out[k] = simNSD{name: fmt.Sprintf("nsd%02d", k+1), servers: []string{s}}
		if len(servers) > 1 {
			out[k].servers = append(out[k].servers, servers[(k+1)%len(servers)])
		}
	}
	return out
}

// fsAvailable reports whether every NSD has a server running: with both
// servers of an NSD down, GPFS cannot reach the disk and the file system
// is unmounted everywhere.
func (c *Cluster) fsAvailable() bool {
	nsds := c.nsds()
	if len(nsds) == 0 {
		return false
	}
	for _, d := range nsds {
		up := false
		for _, s := range d.servers {
			if n := c.node(s); n != nil && n.Started {
				up = true
			}
		}
		if !up {
			return false
		}
	}
	return true
}

// mounted reports whether the file system is mounted on n at now: the
// daemon is active and the disks are reachable.
func (c *Cluster) mounted(n *Node, now time.Time) bool {
	return c.State(n, now) == "active" && c.fsAvailable()
}

// Mmlsnsd simulates mmlsnsd [-a | -L] (samples/gpfs/mmlsnsd-*.txt): the
// file system, disk name, [NSD volume ID,] and server list of every NSD.
func Mmlsnsd() sim.Tool { return command("mmlsnsd", runMmlsnsd) }

func runMmlsnsd(s *session) (int, bool) {
	long := false
	for _, a := range s.e.Args {
		switch a {
		case "-a":
		case "-L":
			long = true
		default:
			s.err("mmlsnsd: Incorrect option: %s\n", a)
			s.err("Usage: mmlsnsd [-a | -F | -f Device | -d \"DiskName[;DiskName...]\"] [-L | -m | -M | -X] [-Y] [-v]\n")
			return 1, false
		}
	}
	nsds := s.c.nsds()
	if len(nsds) == 0 {
		s.err("mmlsnsd: No disks were found.\n")
		return 1, false
	}
	header := " File system   Disk name    NSD servers"
	if long {
		header = " File system   Disk name    NSD volume ID      NSD servers"
	}
	header += strings.Repeat(" ", 37)
	s.out("\n%s\n%s\n", header, strings.Repeat("-", len(header)-1))
	for k, d := range nsds {
		if long {
			s.out(" %-13s %-12s %-18s %s\n", FileSystem, d.name, fmt.Sprintf("0A0A01%02X%08X", k+1, s.c.ID%0xFFFFFFFF), strings.Join(d.servers, ","))
			continue
		}
		s.out(" %-13s %-12s %s\n", FileSystem, d.name, strings.Join(d.servers, ","))
	}
	s.out("\n")
	return 0, false
}

// Mmlsmount simulates mmlsmount {all | gpfs0} -L
// (samples/gpfs/mmlsmount-all-L-*.txt): the nodes that have the file
// system mounted, by IP address and name.
func Mmlsmount() sim.Tool { return command("mmlsmount", runMmlsmount) }

func runMmlsmount(s *session) (int, bool) {
	args := s.e.Args
	if len(args) != 2 || (args[0] != "all" && args[0] != FileSystem) || args[1] != "-L" {
		s.err("mmlsmount: Incorrect arguments: %s\n", strings.Join(args, " "))
		s.err("Usage: mmlsmount {Device | all | all_local | all_remote} [-L] [-C {all | all_remote | ClusterName[,ClusterName...]}]\n")
		return 1, false
	}
	if len(s.c.nsds()) == 0 {
		if args[0] == "all" {
			s.err("mmlsmount: No file systems were found.\n")
		} else {
			s.err("mmlsmount: File system %s is not known to the GPFS cluster.\n", args[0])
		}
		return 1, false
	}
	var on []*Node
	for _, n := range s.c.all() {
		if s.c.mounted(n, s.now) {
			on = append(on, n)
		}
	}
	if len(on) == 0 {
		s.out("File system %s is not mounted.\n", FileSystem)
		return 0, false
	}
	s.out("%s\nFile system %s is mounted on %d nodes:\n", strings.Repeat(" ", 44), FileSystem, len(on))
	for _, n := range on {
		s.out("  %-15s %-25s\n", n.Address, n.Name)
	}
	return 0, false
}
