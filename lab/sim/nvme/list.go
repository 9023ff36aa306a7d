package nvme

import (
	"fmt"
	"io"
	"strings"
)

const (
	listHeader = "Node                  Generic               SN                   Model                                    Namespace  Usage                      Format           FW Rev\n"
	listDashes = "--------------------- --------------------- -------------------- ---------------------------------------- ---------- -------------------------- ---------------- --------\n"
)

// siUnit scales bytes to the decimal units nvme-cli's suffix_si_get uses.
func siUnit(v float64) (float64, string) {
	for _, u := range []string{"", "k", "M", "G", "T", "P"} {
		if v < 1000 || u == "P" {
			return v, u
		}
		v /= 1000
	}
	return v, "P"
}

// usage is the Usage column: "  1.10  TB /   1.10  TB".
func usage(used, total int64) string {
	u, uu := siUnit(float64(used))
	t, tu := siUnit(float64(total))
	return fmt.Sprintf("%6.2f %2sB / %6.2f %2sB", u, uu, t, tu)
}

// listRow is one row of "nvme list" (nvme-cli 2.x).
func listRow(node, generic, sn, model string, nsid int, used, total int64, fw string) string {
	return fmt.Sprintf("%-21s %-21s %-20s %-40s %-10s %-26s %-16s %s\n", node, generic, sn, model,
		fmt.Sprintf("0x%x", nsid), usage(used, total), "512   B +  0 B", fw)
}

func printList(w io.Writer, subs []Subsystem, json bool) {
	if json {
		var items []string
		for _, sub := range subs {
			for _, ns := range sub.Namespaces {
				items = append(items, fmt.Sprintf("    {\n      \"NameSpace\":%d,\n      \"DevicePath\":\"/dev/nvme%dn%d\",\n"+
					"      \"GenericPath\":\"/dev/ng%dn%d\",\n      \"Firmware\":%q,\n      \"ModelNumber\":%q,\n"+
					"      \"SerialNumber\":%q,\n      \"UsedBytes\":%d,\n      \"MaximumLBA\":%d,\n      \"PhysicalSize\":%d,\n"+
					"      \"SectorSize\":512\n    }", ns.NSID, sub.Instance, ns.NSID, sub.Instance, ns.NSID, sub.Firmware, sub.Model,
					sub.Serial, ns.UsedBytes, ns.SizeBytes/512, ns.SizeBytes))
			}
		}
		body := ""
		if len(items) > 0 {
			body = strings.Join(items, ",\n") + "\n"
		}
		fmt.Fprintf(w, "{\n  \"Devices\":[\n%s  ]\n}\n", body)
		return
	}
	io.WriteString(w, listHeader+listDashes)
	for _, sub := range subs {
		for _, ns := range sub.Namespaces {
			io.WriteString(w, listRow(fmt.Sprintf("/dev/nvme%dn%d", sub.Instance, ns.NSID), fmt.Sprintf("/dev/ng%dn%d", sub.Instance, ns.NSID),
				sub.Serial, sub.Model, ns.NSID, ns.UsedBytes, ns.SizeBytes, sub.Firmware))
		}
	}
}

func printListSubsys(w io.Writer, subs []Subsystem, hostNQN, hostID string, json bool) {
	if json {
		var ss []string
		for _, sub := range subs {
			var ps []string
			for _, p := range sub.Paths {
				ps = append(ps, fmt.Sprintf("            {\n              \"Name\":\"nvme%d\",\n              \"Transport\":%q,\n"+
					"              \"Address\":%q,\n              \"State\":\"live\"\n            }", p.Instance, p.Transport, p.Address))
			}
			ss = append(ss, fmt.Sprintf("        {\n          \"Name\":\"nvme-subsys%d\",\n          \"NQN\":%q,\n          \"IOPolicy\":\"numa\",\n"+
				"          \"Paths\":[\n%s\n          ]\n        }", sub.Instance, sub.NQN, strings.Join(ps, ",\n")))
		}
		body := ""
		if len(ss) > 0 {
			body = strings.Join(ss, ",\n") + "\n"
		}
		fmt.Fprintf(w, "[\n  {\n    \"HostNQN\":%q,\n    \"HostID\":%q,\n    \"Subsystems\":[\n%s    ]\n  }\n]\n", hostNQN, hostID, body)
		return
	}
	for i, sub := range subs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		head := fmt.Sprintf("nvme-subsys%d - ", sub.Instance)
		pad := strings.Repeat(" ", len(head))
		fmt.Fprintf(w, "%sNQN=%s\n%shostnqn=%s\n%siopolicy=numa\n\\\n", head, sub.NQN, pad, hostNQN, pad)
		for _, p := range sub.Paths {
			fmt.Fprintf(w, " +- nvme%d %s %s live\n", p.Instance, p.Transport, p.Address)
		}
	}
}
