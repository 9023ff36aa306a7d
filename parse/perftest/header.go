package perftest

import (
	"strconv"
	"strings"
)

// splitPairs splits a parameter line holding one or two "key : value"
// pairs, e.g. " Dual-port       : OFF          Device         : rxe0". A
// value ends where a TAB or two spaces are followed by another "key :".
func splitPairs(line string) [][2]string {
	var out [][2]string
	rest := strings.TrimSpace(line)
	for rest != "" {
		k, v, ok := strings.Cut(rest, ":")
		if !ok {
			return nil
		}
		v = strings.TrimLeft(v, " \t")
		end := len(v)
		for i := 0; i < len(v); i++ {
			gap := v[i] == '\t' || (v[i] == ' ' && i+1 < len(v) && v[i+1] == ' ')
			if gap && strings.Contains(v[i:], ":") {
				end = i
				break
			}
		}
		out = append(out, [2]string{strings.TrimSpace(k), strings.TrimSpace(v[:end])})
		rest = strings.TrimSpace(v[end:])
	}
	return out
}

// setHeader stores one parameter, or returns a reason when a numeric
// parameter is not a number.
func setHeader(h *Header, key, value string) string {
	if h.Fields == nil {
		h.Fields = map[string]string{}
	}
	h.Fields[key] = value
	on := strings.EqualFold(value, "ON")
	switch key {
	case "Device":
		h.Device = value
	case "Transport type":
		h.Transport = value
	case "Connection type":
		h.ConnectionType = value
	case "Link type":
		h.LinkType = value
	case "Data ex. method":
		h.DataExchange = value
	case "Dual-port":
		h.DualPort = on
	case "Using SRQ":
		h.UsingSRQ = on
	case "rdma_cm QPs":
		h.RDMACM = on
	case "Number of qps":
		return headerInt(value, &h.NumQPs, key)
	case "TX depth":
		return headerInt(value, &h.TXDepth, key)
	case "CQ Moderation":
		return headerInt(value, &h.CQModeration, key)
	case "Mtu":
		return headerInt(value, &h.MTU, key)
	case "GID index":
		return headerInt(value, &h.GIDIndex, key)
	case "Max inline data":
		return headerInt(value, &h.MaxInline, key)
	case "Outstand reads":
		return headerInt(value, &h.OutstandReads, key)
	}
	return ""
}

// headerInt reads "4096" or "4096[B]".
func headerInt(value string, dst *int, key string) string {
	v, err := strconv.Atoi(strings.TrimSuffix(value, "[B]"))
	if err != nil {
		return key + " is not a number"
	}
	*dst = v
	return ""
}

// parseAddress reads the part after "local address:" / "remote address:",
// e.g. "LID 0x04 QPN 0x020f PSN 0x17e736 OUT 0x10 RKey 0x8010100 VAddr 0x...".
func parseAddress(s string) (Address, bool) {
	f := strings.Fields(s)
	if len(f)%2 != 0 {
		return Address{}, false
	}
	var a Address
	for i := 0; i < len(f); i += 2 {
		v := f[i+1]
		switch f[i] {
		case "LID":
			a.LID = v
		case "QPN":
			a.QPN = v
		case "PSN":
			a.PSN = v
		case "OUT":
			a.OUT = v
		case "RKey":
			a.RKey = v
		case "VAddr":
			a.VAddr = v
		}
	}
	return a, true
}
