package gds

import (
	"strings"

	"github.com/provadev/prova/internal/lazyre"
	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

// Check is the output of gdscheck -p (or gdscheck.py -v).
type Check struct {
	// NotInstalled is set by ParseRun when the binary was not found.
	NotInstalled bool `json:"not_installed,omitempty"`
	// Warnings keeps "warn: ..." lines (e.g. the log file of a non-root run).
	Warnings []string `json:"warnings,omitempty"`
	// NoGPU is true when the tool printed "No GPU found ...".
	NoGPU bool `json:"no_gpu,omitempty"`
	// Errors keeps lines reporting a failure that fit no known field.
	Errors []string `json:"errors,omitempty"`

	GDSVersion string `json:"gds_version,omitempty"`
	// NvidiaFSVersion is empty when the line does not name one (module not
	// loaded or not printed).
	NvidiaFSVersion    string `json:"nvidia_fs_version,omitempty"`
	NvidiaFSMinVersion string `json:"nvidia_fs_min_version,omitempty"`
	LibcufileVersion   string `json:"libcufile_version,omitempty"`
	Arch               string `json:"arch,omitempty"` // "Platform: x86_64" at the top

	// Drivers are the DRIVER CONFIGURATION entries (file systems and
	// transports), in printed order.
	Drivers []Driver `json:"drivers,omitempty"`
	RDMA    RDMA     `json:"rdma"`
	// Cufile holds the CUFILE CONFIGURATION properties by name.
	Cufile map[string]string `json:"cufile,omitempty"`
	GPUs   []GPU             `json:"gpus,omitempty"`

	IOMMU              string `json:"iommu,omitempty"` // PLATFORM INFO "IOMMU: disabled"
	IOMMUEnabled       bool   `json:"iommu_enabled"`
	NvidiaDriverStatus string `json:"nvidia_driver_status,omitempty"`
	CudaDriverVersion  string `json:"cuda_driver_version,omitempty"`
	Platform           string `json:"platform,omitempty"` // PLATFORM INFO "Platform: ..."
	// PlatformVerification is the text after "Platform verification"
	// ("succeeded", or the failure text); PlatformVerified is true only for
	// "succeeded".
	PlatformVerification string `json:"platform_verification,omitempty"`
	PlatformVerified     bool   `json:"platform_verified"`

	// Other keeps unrecognised "key: value" lines by section and key.
	Other map[string]map[string]string `json:"other,omitempty"`
}

// RDMA is the "--" lines of DRIVER CONFIGURATION.
type RDMA struct {
	PeerDirect        string            `json:"peer_direct,omitempty"` // "Enabled" / "Disabled"
	DmaBuf            string            `json:"dmabuf,omitempty"`
	Library           string            `json:"library,omitempty"` // "Loaded (libcufile_rdma.so)"
	LibraryLoaded     bool              `json:"library_loaded"`
	Devices           string            `json:"devices,omitempty"` // "Configured" / "Not configured"
	DevicesConfigured bool              `json:"devices_configured"`
	Up                *int              `json:"up,omitempty"`
	Down              *int              `json:"down,omitempty"`
	Options           map[string]string `json:"options,omitempty"` // other "--" lines
}

// GPU is one GPU INFO line.
type GPU struct {
	Index       int    `json:"index"`
	Name        string `json:"name,omitempty"`
	Bar         *int   `json:"bar,omitempty"`
	BarSizeMiB  *int   `json:"bar_size_mib,omitempty"`
	SupportsGDS bool   `json:"supports_gds"`
	IOMMUState  string `json:"iommu_state,omitempty"`
}

var (
	sectionRe    = lazyre.New(`^[A-Z][A-Z ]+:$`)
	nvfsRe       = lazyre.New(`nvidia_fs version:\s*([0-9][0-9.]*)`)
	nvfsMinRe    = lazyre.New(`nvidia_fs minimum version:\s*([0-9][0-9.]*)`)
	cufileRe     = lazyre.New(`libcufile version:\s*([0-9][0-9.]*)`)
	gpuRe        = lazyre.New(`^GPU index (\d+)\s+(\S.*)$`)
	barRe        = lazyre.New(`\bbar:(\d+)`)
	barSizeRe    = lazyre.New(`bar size \(MiB\):\s*(\d+)`)
	iommuStateRe = lazyre.New(`IOMMU State:\s*(\S+)`)
	upDownRe     = lazyre.New(`Up:\s*(\d+)\s+Down:\s*(\d+)`)
	failWordRe   = lazyre.New(`(?i)\b(error|failed|failure|cannot|unable)\b`)
)

// ParseGdscheck reads gdscheck -p or gdscheck.py -v output.
func ParseGdscheck(data []byte) (*Check, error) {
	const tool = "gdscheck"
	if err := parse.Complete(tool, data); err != nil {
		return nil, err
	}
	c := &Check{}
	section := ""
	for i, raw := range text.Lines(data) {
		line := strings.TrimSpace(raw)
		switch {
		case line == "", strings.Trim(line, "=") == "":
			continue
		case sectionRe.MatchString(line):
			section = strings.TrimSuffix(line, ":")
			continue
		case strings.HasPrefix(line, "warn:"):
			c.Warnings = append(c.Warnings, strings.TrimSpace(strings.TrimPrefix(line, "warn:")))
			continue
		case strings.HasPrefix(line, "No GPU found"):
			c.NoGPU = true
			continue
		case strings.HasPrefix(line, "Platform verification"):
			c.PlatformVerification = strings.TrimSpace(strings.TrimPrefix(line, "Platform verification"))
			c.PlatformVerified = c.PlatformVerification == "succeeded"
			continue
		case strings.HasPrefix(line, "GDS release version:"):
			if c.GDSVersion != "" {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "a second 'GDS release version' line (two outputs run together?)"}
			}
			c.GDSVersion = strings.TrimSpace(strings.TrimPrefix(line, "GDS release version:"))
			continue
		case strings.HasPrefix(line, "nvidia_fs version:") || strings.HasPrefix(line, "libcufile version:") ||
			strings.HasPrefix(line, "nvidia_fs minimum version:"):
			// "nvidia_fs minimum version: 2.12" stands alone when nvidia_fs
			// is not loaded.
			c.version(line)
			continue
		}
		if section == "GPU INFO" && strings.HasPrefix(line, "GPU index") {
			g, ok := parseGPU(line)
			if !ok {
				return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "bad GPU INFO line"}
			}
			c.GPUs = append(c.GPUs, g)
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok || key == "" {
			if failWordRe.MatchString(line) {
				c.Errors = append(c.Errors, line)
				continue
			}
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "expected 'name : value'"}
		}
		if section == "" && key != "Platform" {
			return nil, &parse.Error{Tool: tool, Line: i + 1, Text: raw, Reason: "unexpected line before the first section (gdscheck starts with its version lines)"}
		}
		c.field(section, key, value)
	}
	if c.GDSVersion == "" && !c.NoGPU && len(c.Drivers) == 0 && len(c.Errors) == 0 {
		return nil, &parse.Error{Tool: tool, Reason: "no GDS release version, driver configuration or 'No GPU found'"}
	}
	return c, nil
}

func (c *Check) version(line string) {
	if m := nvfsRe.FindStringSubmatch(line); m != nil {
		c.NvidiaFSVersion = m[1]
	}
	if m := nvfsMinRe.FindStringSubmatch(line); m != nil {
		c.NvidiaFSMinVersion = m[1]
	}
	if m := cufileRe.FindStringSubmatch(line); m != nil {
		c.LibcufileVersion = m[1]
	}
}

func (c *Check) field(section, key, value string) {
	switch section {
	case "":
		if key == "Platform" {
			c.Arch = value
			return
		}
	case "DRIVER CONFIGURATION":
		if name, ok := strings.CutPrefix(key, "--"); ok {
			c.RDMA.set(strings.TrimSpace(name), value)
		} else {
			c.Drivers = append(c.Drivers, newDriver(key, value))
		}
		return
	case "CUFILE CONFIGURATION":
		if c.Cufile == nil {
			c.Cufile = map[string]string{}
		}
		c.Cufile[key] = value
		return
	case "PLATFORM INFO":
		switch key {
		case "IOMMU":
			c.IOMMU = value
			c.IOMMUEnabled = !strings.HasPrefix(strings.ToLower(value), "disabled")
			return
		case "Nvidia Driver Info Status":
			c.NvidiaDriverStatus = value
			return
		case "Cuda Driver Version Installed":
			c.CudaDriverVersion = value
			return
		case "Platform":
			c.Platform = value
			return
		}
	}
	if c.Other == nil {
		c.Other = map[string]map[string]string{}
	}
	if c.Other[section] == nil {
		c.Other[section] = map[string]string{}
	}
	c.Other[section][key] = value
}

func (r *RDMA) set(name, value string) {
	switch strings.ToLower(name) {
	case "mellanox peerdirect":
		r.PeerDirect = value
	case "dmabuf support":
		r.DmaBuf = value
	case "rdma library":
		r.Library = value
		r.LibraryLoaded = strings.HasPrefix(value, "Loaded")
	case "rdma devices":
		r.Devices = value
		r.DevicesConfigured = strings.HasPrefix(value, "Configured")
	case "rdma_device_status":
		if m := upDownRe.FindStringSubmatch(value); m != nil {
			r.Up, r.Down = text.OptInt(m[1]), text.OptInt(m[2])
		}
	default:
		if r.Options == nil {
			r.Options = map[string]string{}
		}
		r.Options[name] = value
	}
}

func parseGPU(line string) (GPU, bool) {
	m := gpuRe.FindStringSubmatch(line)
	if m == nil {
		return GPU{}, false
	}
	idx := text.OptInt(m[1])
	if idx == nil {
		return GPU{}, false
	}
	rest := m[2]
	g := GPU{Index: *idx, SupportsGDS: strings.Contains(rest, "supports GDS")}
	if k := strings.Index(rest, " bar:"); k >= 0 {
		g.Name = strings.TrimSpace(rest[:k])
	} else {
		g.Name, _, _ = strings.Cut(rest, " supports GDS")
		g.Name, _, _ = strings.Cut(g.Name, ",")
		g.Name = strings.TrimSpace(g.Name)
	}
	if b := barRe.FindStringSubmatch(rest); b != nil {
		g.Bar = text.OptInt(b[1])
	}
	if b := barSizeRe.FindStringSubmatch(rest); b != nil {
		g.BarSizeMiB = text.OptInt(b[1])
	}
	if b := iommuStateRe.FindStringSubmatch(rest); b != nil {
		g.IOMMUState = b[1]
	}
	return g, true
}
