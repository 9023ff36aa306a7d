package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/provadev/prova/lab/model"
	"github.com/provadev/prova/lab/sim"
	"github.com/provadev/prova/lab/sim/gds"
)

// writeNodeFiles lays out one node's directory: its model, the scripts of
// its installed tools, and the files a real node has under root/ (seen by
// commands at the real paths, see package lab/nsexec).
func writeNodeFiles(nodeDir, labDir, binary string, n *model.Node, table *sim.Table) error {
	for _, d := range []string{"bin", "state", "run", "root/proc", "root/root", "root/var/adm/ras"} {
		if err := os.MkdirAll(filepath.Join(nodeDir, d), 0o755); err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
	}
	if err := n.Save(nodeDir); err != nil {
		return err
	}
	for _, tool := range table.Installed(n) {
		script := fmt.Sprintf("#!/bin/sh\nPROVA_LAB_DIR=%s PROVA_LAB_NODE=%s exec %s lab sim %s \"$@\"\n",
			shq(labDir), shq(n.Name), shq(binary), shq(tool))
		if err := os.WriteFile(filepath.Join(nodeDir, "bin", tool), []byte(script), 0o755); err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
		t, _ := table.Lookup(tool)
		for _, p := range t.Paths {
			p = filepath.Join(nodeDir, "root", p)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("node %s: %w", n.Name, err)
			}
			if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
				return fmt.Errorf("node %s: %w", n.Name, err)
			}
		}
	}
	files := map[string]string{
		"proc/meminfo": meminfo(n),
		"proc/cpuinfo": cpuinfo(n),
		"proc/modules": modules(n),
		"proc/cmdline": cmdline(n),
	}
	if slices.Contains(n.FileSystems, "gpfs") {
		files["var/adm/ras/mmfs.log.latest"] = ""
		// gpfs_restart's marker of the wave in flight lives here
		if err := os.MkdirAll(filepath.Join(nodeDir, "root", "var", "mmfs", "tmp"), 0o755); err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
	}
	if n.Ceph != nil {
		files["etc/ceph/ceph.conf"] = n.Ceph.Conf()
	}
	if text, ok := gds.CufileJSON(n); ok {
		files["etc/cufile.json"] = text
	}
	if text, ok := gds.InitialNvfsStats(n); ok {
		files[strings.TrimPrefix(gds.StatsPath, "/")] = text
	}
	for i := 0; i < n.NVMeDrives; i++ {
		files[fmt.Sprintf("dev/nvme%d", i)] = ""
		files[fmt.Sprintf("dev/nvme%dn1", i)] = ""
	}
	for rel, content := range files {
		p := filepath.Join(nodeDir, "root", rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return fmt.Errorf("node %s: %w", n.Name, err)
		}
	}
	return nil
}

func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func meminfo(n *model.Node) string {
	total := uint64(n.MemoryGiB) << 20 // kB
	free := total * 9 / 10
	var b strings.Builder
	for _, kv := range []struct {
		k string
		v uint64
	}{
		{"MemTotal", total}, {"MemFree", free}, {"MemAvailable", free + total/40}, {"Buffers", 4096},
		{"Cached", total / 50}, {"SwapCached", 0}, {"Active", total / 30}, {"Inactive", total / 60},
		{"SwapTotal", 0}, {"SwapFree", 0}, {"Dirty", 12}, {"Shmem", 2048}, {"HugePages_Total", 0},
	} {
		if strings.HasPrefix(kv.k, "Huge") {
			fmt.Fprintf(&b, "%-16s%8d\n", kv.k+":", kv.v)
			continue
		}
		fmt.Fprintf(&b, "%-16s%8d kB\n", kv.k+":", kv.v)
	}
	fmt.Fprintf(&b, "%-16s%8d kB\n", "Hugepagesize:", 2048)
	return b.String()
}

func cpuinfo(n *model.Node) string {
	var b strings.Builder
	for i := 0; i < n.CPUs; i++ {
		fmt.Fprintf(&b, "processor\t: %d\nvendor_id\t: GenuineIntel\nmodel name\t: Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz\n"+
			"physical id\t: %d\ncpu cores\t: %d\n\n", i, i*max(n.NUMANodes, 1)/n.CPUs, n.CPUs/max(n.NUMANodes, 1))
	}
	return b.String()
}

func modules(n *model.Node) string {
	var mods []string
	if n.HasRDMA() {
		mods = append(mods, "mlx5_ib", "ib_uverbs", "ib_core", "mlx5_core", "rdma_cm")
	}
	if len(n.GPUs) > 0 {
		mods = append(mods, "nvidia", "nvidia_uvm")
	}
	if n.NvidiaFS {
		mods = append(mods, "nvidia_fs")
	}
	mods = append(mods, "nvme", "nvme_core")
	var b strings.Builder
	for i, m := range mods {
		fmt.Fprintf(&b, "%s %d %d - Live 0xffffffffc%07x\n", m, 65536+i*4096, i%3, i*0x10000)
	}
	return b.String()
}

func cmdline(n *model.Node) string {
	s := "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-" + n.Kernel + " root=/dev/mapper/rhel-root ro crashkernel=auto"
	if n.IOMMU {
		s += " intel_iommu=on" // translating, not iommu=pt (see docs/gds.md)
	}
	return s + "\n"
}
