package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/provadev/prova/lab/sshserve"
)

// writeClientFiles writes inventory.hcl, gpfs.hcl, known_hosts and
// ssh_config for the current nodes, each atomically. gpfs.hcl names no
// node: its hosts come from the cluster (a gpfs_cluster block asking the
// first node whose SSH server is up), reached through ssh_config.
func (l *Lab) writeClientFiles() error {
	var inv, kh, cfg strings.Builder
	fmt.Fprintf(&inv, "# Written by prova lab for cluster %q; rewritten on expand.\n", l.sc.Name)
	inv.WriteString("defaults {\n  user = \"root\"\n  identity_file = \"id_ed25519\"        # relative to the inventory file\n" +
		"  known_hosts = \"known_hosts\"\n  strict_host_key_checking = \"yes\"\n" +
		"  # apply's cluster lock, in a directory each node has of its own\n" +
		"  vars = { prova_lock_path = \"/var/adm/ras/prova-cluster.lock\" }\n}\n")
	for _, n := range l.nodes {
		quoted := make([]string, len(n.model.Groups))
		for i, g := range n.model.Groups {
			quoted[i] = fmt.Sprintf("%q", g)
		}
		fmt.Fprintf(&inv, "\nhost %q {\n  address = \"127.0.0.1\"\n  port    = %d\n  groups  = [%s]\n}\n",
			n.model.Name, n.port, strings.Join(quoted, ", "))
		fmt.Fprintf(&kh, "%s\n", sshserve.KnownHostsLine(fmt.Sprintf("127.0.0.1:%d", n.port), n.hostKey.PublicKey()))
		fmt.Fprintf(&cfg, "Host %s\n  HostName 127.0.0.1\n  Port %d\n  User root\n  IdentityFile %s\n  IdentitiesOnly yes\n"+
			"  UserKnownHostsFile %s\n  StrictHostKeyChecking yes\n\n", n.model.Name, n.port,
			filepath.Join(l.dir, "id_ed25519"), filepath.Join(l.dir, "known_hosts"))
	}
	gpfs := l.gpfsInventory()
	for name, content := range map[string]string{"inventory.hcl": inv.String(), "gpfs.hcl": gpfs, "known_hosts": kh.String(), "ssh_config": cfg.String()} {
		if err := writeAtomic(filepath.Join(l.dir, name), content); err != nil {
			return err
		}
	}
	return nil
}

// GPFSInventoryName is the lab's inventory whose hosts come from the
// GPFS cluster itself.
const GPFSInventoryName = "gpfs.hcl"

func (l *Lab) gpfsInventory() string {
	admin := ""
	for _, n := range l.nodes {
		if !n.model.Faults.SSHDown && slices.Contains(n.model.FileSystems, "gpfs") {
			admin = n.model.Name
			break
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Written by prova lab for cluster %q. No node is listed: prova asks the\n"+
		"# cluster (mmlscluster, mmlsnodeclass, mmlsnsd on the admin node) and\n"+
		"# reaches each node through ssh_config, so an expansion needs no edit.\n", l.sc.Name)
	b.WriteString("defaults {\n  user = \"root\"\n  identity_file = \"id_ed25519\"\n  known_hosts = \"known_hosts\"\n" +
		"  ssh_config = \"ssh_config\"\n  strict_host_key_checking = \"yes\"\n" +
		"  vars = { prova_lock_path = \"/var/adm/ras/prova-cluster.lock\" }\n}\n")
	if admin == "" {
		b.WriteString("\n# No GPFS node with SSH up: nothing to ask.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "\ngpfs_cluster {\n  admin = %q\n}\n", admin)
	return b.String()
}

func writeAtomic(path, content string) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}
