package support

// Probe is one read-only command a bundle collects.
type Probe struct {
	// ID names the probe in the bundle (file names, reports).
	ID string `json:"id"`
	// Command is the shell command run on the host, as prova's modules
	// run it.
	Command string `json:"command"`
	// Parser is the `prova parse` parser that reads the output, "" for
	// output kept raw (versions, formats without a parser yet).
	Parser string `json:"parser,omitempty"`
	// Version marks probes whose output is a tool version.
	Version bool `json:"version,omitempty"`
}

// mm runs a GPFS command with /usr/lpp/mmfs/bin on PATH, as the GPFS
// modules do (modules/internal/gpfscmd.MM).
func mm(cmd string) string { return "PATH=$PATH:/usr/lpp/mmfs/bin " + cmd }

// Probes are the read-only commands prova's modules run, plus the tool
// versions and the formats prova cannot parse yet but wants to see
// (mmdiag --verbs -Y, the "conns" spelling). Every one of them only reads.
var Probes = []Probe{
	{ID: "uname", Command: "uname -r", Version: true},
	{ID: "ofed_info", Command: "ofed_info -s", Parser: "ofed-info", Version: true},
	{ID: "ibstat", Command: "ibstat", Parser: "ibstat"},
	{ID: "ibstatus", Command: "ibstatus", Parser: "ibstatus"},
	{ID: "ibv_devinfo", Command: "ibv_devinfo", Parser: "ibv-devinfo"},
	{ID: "ibdev2netdev", Command: "ibdev2netdev", Parser: "ibdev2netdev"},
	{ID: "rdma_link", Command: "rdma link show", Parser: "rdma-link"},
	{ID: "rdma_link_json", Command: "rdma -j link show", Parser: "rdma-link"},
	{ID: "mmdiag_version", Command: mm("mmdiag --version"), Version: true},
	{ID: "mmlscluster", Command: mm("mmlscluster"), Parser: "mmlscluster"},
	{ID: "mmlsconfig_y", Command: mm("mmlsconfig -Y"), Parser: "mmlsconfig-y"},
	{ID: "mmdiag_config_y", Command: mm("mmdiag --config -Y"), Parser: "mmdiag-config-y"},
	{ID: "mmdiag_network", Command: mm("mmdiag --network"), Parser: "mmdiag-network"},
	{ID: "mmdiag_verbs_y", Command: mm("mmdiag --verbs -Y"), Parser: "mmdiag-verbs-y"},
	{ID: "mmgetstate_y", Command: mm("mmgetstate -Y"), Parser: "mmgetstate-y"},
	{ID: "mmfsadm_verbs_status", Command: mm("mmfsadm test verbs status"), Parser: "mmfsadm-verbs-status"},
	{ID: "mmfsadm_verbs_conn", Command: mm("mmfsadm test verbs conn"), Parser: "mmfsadm-verbs-conn"},
	{ID: "mmfsadm_verbs_conns", Command: mm("mmfsadm test verbs conns"), Parser: "mmfsadm-verbs-conn"},
	{ID: "mmfs_log", Command: "tail -n 5000 -- /var/adm/ras/mmfs.log.latest", Parser: "mmfs-log"},
	{ID: "nvme_version", Command: "nvme version", Parser: "nvme-version", Version: true},
	{ID: "nvme_list", Command: "nvme list -o json", Parser: "nvme-list"},
	{ID: "nvme_list_subsys", Command: "nvme list-subsys -o json", Parser: "nvme-list-subsys"},
	{ID: "nvidia_smi_topo", Command: "nvidia-smi topo -m", Parser: "nvidia-smi-topo"},
	{ID: "gdscheck", Command: "/usr/local/cuda/gds/tools/gdscheck -p", Parser: "gdscheck"},
	{ID: "cufile_json", Command: "cat /etc/cufile.json", Parser: "cufile-json"},
	{ID: "nvidia_fs_stats", Command: "cat /proc/driver/nvidia-fs/stats", Parser: "nvidia-fs-stats"},
	{ID: "lspci", Command: "lspci -vvv -D", Parser: "lspci-vvv"},
	{ID: "ip_addr", Command: "ip -o addr show", Parser: "ip-addr"},
	{ID: "elbencho_version", Command: "elbencho --version", Parser: "elbencho-version", Version: true},
	{ID: "fio_version", Command: "fio --version", Version: true},
	{ID: "ceph_conf", Command: "cat /etc/ceph/ceph.conf"},
}

// VersionProbes returns the probes of Probes that report a tool version:
// collect RUNBOOK runs them before the runbook's own commands.
func VersionProbes() []Probe {
	var out []Probe
	for _, p := range Probes {
		if p.Version {
			out = append(out, p)
		}
	}
	return out
}
