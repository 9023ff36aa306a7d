package gpfscmd

import (
	"fmt"
	"strconv"
	"strings"
)

// Port is one verbsPorts entry or required port: device/port[/fabric].
type Port struct {
	Raw    string // as written
	Device string
	Port   int // 1 when the entry names only the device
	Fabric int // 0 when not given
}

// String is "device/port".
func (p Port) String() string { return p.Device + "/" + strconv.Itoa(p.Port) }

// ParsePort reads "mlx5_0/1", "mlx5_0/1/2" (fabric number) or "mlx5_0"
// (port 1), the forms verbsPorts accepts.
func ParsePort(s string) (Port, error) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	p := Port{Raw: s, Device: parts[0], Port: 1}
	if p.Device == "" || strings.ContainsAny(p.Device, " \t") || len(parts) > 3 {
		return p, fmt.Errorf("%q is not device/port (e.g. mlx5_0/1)", s)
	}
	for i, dst := range []*int{&p.Port, &p.Fabric} {
		if len(parts) <= i+1 {
			break
		}
		n, err := strconv.Atoi(parts[i+1])
		if err != nil || n < 0 || (i == 0 && n == 0) {
			return p, fmt.Errorf("%q is not device/port (e.g. mlx5_0/1): bad number %q", s, parts[i+1])
		}
		*dst = n
	}
	return p, nil
}

// SplitPorts reads a verbsPorts value: entries separated by spaces.
func SplitPorts(value string) ([]Port, error) {
	var out []Port
	for _, f := range strings.Fields(value) {
		p, err := ParsePort(f)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}
