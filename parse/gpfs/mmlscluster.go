package gpfs

import (
	"net/netip"
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Cluster is the output of mmlscluster.
type Cluster struct {
	Name           string `json:"name"`
	ID             string `json:"id"`
	UIDDomain      string `json:"uid_domain,omitempty"`
	RemoteShell    string `json:"remote_shell,omitempty"`
	RemoteCopy     string `json:"remote_copy,omitempty"`
	RepositoryType string `json:"repository_type,omitempty"`
	// CCR is true when the repository type is CCR (clustered configuration
	// repository) rather than primary/secondary configuration servers.
	CCR bool `json:"ccr"`
	// Info keeps every "key: value" line of the information blocks, by key.
	Info  map[string]string `json:"info"`
	Nodes []ClusterNode     `json:"nodes"`
}

// ClusterNode is one row of the node table.
type ClusterNode struct {
	Number      int    `json:"number"`
	DaemonName  string `json:"daemon_name"`
	IP          string `json:"ip"`
	AdminName   string `json:"admin_name"`
	Designation string `json:"designation,omitempty"`
	Quorum      bool   `json:"quorum"`
	Manager     bool   `json:"manager"`
	// Other roles in the designation, e.g. "perfmon", "gateway".
	Roles []string `json:"roles,omitempty"`
}

// Node finds a node by daemon name, admin name (short names match long
// ones) or IP address.
func (c *Cluster) Node(nameOrIP string) (ClusterNode, bool) {
	for _, n := range c.Nodes {
		if n.IP == nameOrIP || sameNode(n.DaemonName, nameOrIP) || sameNode(n.AdminName, nameOrIP) {
			return n, true
		}
	}
	return ClusterNode{}, false
}

// ParseMmlscluster reads the human-readable output of mmlscluster.
func ParseMmlscluster(data []byte) (*Cluster, error) {
	const tool = "mmlscluster"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	c := &Cluster{Info: map[string]string{}, Nodes: []ClusterNode{}}
	inTable, titled := false, false
	numbers := map[int]bool{}
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "", strings.Trim(line, "=-") == "":
			continue
		case strings.HasPrefix(line, "Node") && strings.Contains(line, "Daemon node name"):
			inTable = true
			continue
		case !inTable && titled && strings.Contains(line, ":"):
			k, v, _ := strings.Cut(line, ":")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			c.Info[k] = v
			switch k {
			case "GPFS cluster name":
				c.Name = v
			case "GPFS cluster id":
				c.ID = v
			case "GPFS UID domain":
				c.UIDDomain = v
			case "Remote shell command":
				c.RemoteShell = v
			case "Remote file copy command":
				c.RemoteCopy = v
			case "Repository type":
				c.RepositoryType = v
				c.CCR = strings.EqualFold(v, "CCR")
			}
			continue
		case strings.HasSuffix(line, "information"):
			if inTable || (line == "GPFS cluster information" && c.Name != "") {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "a second cluster information block (two outputs run together?)"}
			}
			titled = true
			continue // block titles: "GPFS cluster information", ...
		}
		f := strings.Fields(line)
		n, err := strconv.Atoi(f[0])
		if !inTable || err != nil || len(f) < 4 || len(f) > 5 {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected '<node> <daemon name> <IP address> <admin name> [<designation>]'"}
		}
		if _, err := netip.ParseAddr(f[2]); err != nil {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad IP address " + strconv.Quote(f[2])}
		}
		if numbers[n] {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "node number " + strconv.Itoa(n) + " a second time (two outputs run together?)"}
		}
		numbers[n] = true
		node := ClusterNode{Number: n, DaemonName: f[1], IP: f[2], AdminName: f[3]}
		if len(f) == 5 {
			node.Designation = f[4]
			for _, role := range strings.Split(f[4], "-") {
				switch role {
				case "quorum":
					node.Quorum = true
				case "manager":
					node.Manager = true
				default:
					node.Roles = append(node.Roles, role)
				}
			}
		}
		c.Nodes = append(c.Nodes, node)
	}
	if c.Name == "" && len(c.Nodes) == 0 {
		return nil, &parse.Error{Tool: tool, Reason: "no cluster information and no nodes"}
	}
	return c, nil
}
