package nvme

import "strings"

// Address is a controller's transport address as nvme-cli prints it:
// "traddr=A,trsvcid=P,src_addr=S" (2.x, the raw sysfs string),
// "traddr=A trsvcid=P host_traddr=H" (1.x) or a PCI address for pcie.
type Address struct {
	Traddr     string            `json:"traddr,omitempty"`
	Trsvcid    string            `json:"trsvcid,omitempty"`
	HostTraddr string            `json:"host_traddr,omitempty"`
	SrcAddr    string            `json:"src_addr,omitempty"`
	HostIface  string            `json:"host_iface,omitempty"`
	Extra      map[string]string `json:"extra,omitempty"`
}

// ParseAddress splits an address string; a bare token (a PCI address such
// as 0000:41:00.0) becomes Traddr.
func ParseAddress(s string) Address {
	var a Address
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
		k, v, ok := strings.Cut(tok, "=")
		if !ok {
			if a.Traddr == "" {
				a.Traddr = tok
			}
			continue
		}
		switch k {
		case "traddr":
			a.Traddr = v
		case "trsvcid":
			a.Trsvcid = v
		case "host_traddr":
			a.HostTraddr = v
		case "src_addr":
			a.SrcAddr = v
		case "host_iface":
			a.HostIface = v
		default:
			if a.Extra == nil {
				a.Extra = map[string]string{}
			}
			a.Extra[k] = v
		}
	}
	return a
}
