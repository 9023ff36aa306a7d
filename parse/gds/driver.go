package gds

import "strings"

// Driver is one DRIVER CONFIGURATION entry, e.g. "NVMe : Supported" or
// "IBM Spectrum Scale : dmabuf, compat".
type Driver struct {
	Name  string `json:"name"`
	Value string `json:"value"` // as printed
	// Capabilities is the 1.16+ list ("nvfs", "dmabuf", "compat"); empty
	// for the older Supported/Unsupported vocabulary.
	Capabilities []string `json:"capabilities,omitempty"`
	// Supported is true for "Supported" or a capability list with nvfs or
	// dmabuf (GPUDirect proper, not the compat fallback).
	Supported bool `json:"supported"`
}

// Has reports whether the driver lists capability c (e.g. "nvfs").
func (d Driver) Has(c string) bool {
	for _, x := range d.Capabilities {
		if strings.EqualFold(x, c) {
			return true
		}
	}
	return false
}

func newDriver(name, value string) Driver {
	d := Driver{Name: name, Value: value}
	low := strings.ToLower(value)
	switch {
	case strings.HasPrefix(low, "unsupported"):
	case strings.HasPrefix(low, "supported"):
		d.Supported = true
	default:
		for _, p := range strings.Split(value, ",") {
			if p = strings.TrimSpace(p); p != "" {
				d.Capabilities = append(d.Capabilities, p)
			}
		}
		d.Supported = d.Has("nvfs") || d.Has("dmabuf")
	}
	return d
}

// driverAliases maps lowercased names a caller may use to the names
// gdscheck prints.
var driverAliases = map[string][]string{
	"gpfs":           {"ibm spectrum scale", "ibm storage scale"},
	"spectrum scale": {"ibm spectrum scale", "ibm storage scale"},
	"storage scale":  {"ibm spectrum scale", "ibm storage scale"},
	"lustre":         {"ddn exascaler", "fsx lustre", "lustre"},
	"weka":           {"wekafs"},
}

// Driver finds a DRIVER CONFIGURATION entry by name, case-insensitively;
// "gpfs", "spectrum scale" and "storage scale" find IBM Spectrum/Storage
// Scale, "weka" finds WekaFS, "lustre" the first Lustre entry.
func (c *Check) Driver(name string) (Driver, bool) {
	want := []string{strings.ToLower(name)}
	want = append(want, driverAliases[want[0]]...)
	for _, w := range want {
		for _, d := range c.Drivers {
			if strings.ToLower(d.Name) == w {
				return d, true
			}
		}
	}
	return Driver{}, false
}
