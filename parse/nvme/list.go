package nvme

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/provadev/prova/parse"
	"github.com/provadev/prova/parse/text"
)

const toolList = "nvme list"

// List is what "nvme list" shows. Devices is always filled; Subsystems and
// Controllers only by "nvme list -v" (text or JSON).
type List struct {
	Devices     []Device         `json:"devices"`
	Subsystems  []ListSubsystem  `json:"subsystems,omitempty"`
	Controllers []ListController `json:"controllers,omitempty"`
	// Empty is true when nothing was printed: nvme-cli 1.x's way of saying
	// there is no namespace (its "No NVMe devices detected." goes to
	// stderr). A header without rows (2.x) is an empty list, not Empty.
	Empty bool `json:"empty,omitempty"`
}

// Device is one namespace block device.
type Device struct {
	DevicePath   string   `json:"device"`            // /dev/nvme0n1
	GenericPath  string   `json:"generic,omitempty"` // /dev/ng0n1 (2.x)
	Serial       string   `json:"serial,omitempty"`
	Model        string   `json:"model,omitempty"`
	Namespace    uint32   `json:"namespace"` // NSID
	Usage        string   `json:"usage,omitempty"`
	UsedBytes    uint64   `json:"used_bytes"` // text output: rounded to the printed precision
	SizeBytes    uint64   `json:"size_bytes"`
	Format       string   `json:"format,omitempty"`
	SectorSize   uint64   `json:"sector_size"`
	MetadataSize uint64   `json:"metadata_size"`
	Firmware     string   `json:"firmware,omitempty"`
	MaximumLBA   uint64   `json:"maximum_lba,omitempty"`  // JSON only
	ProductName  string   `json:"product_name,omitempty"` // JSON 1.x only
	Subsystem    string   `json:"subsystem,omitempty"`    // when known (-v)
	SubsystemNQN string   `json:"subsystem_nqn,omitempty"`
	Controllers  []string `json:"controllers,omitempty"`
	Transport    string   `json:"transport,omitempty"`
	Address      string   `json:"address,omitempty"`
}

// ListSubsystem is a row of the -v subsystems table.
type ListSubsystem struct {
	Name        string   `json:"name"`
	NQN         string   `json:"nqn"`
	HostNQN     string   `json:"host_nqn,omitempty"`
	Controllers []string `json:"controllers"`
}

// ListController is a row of the -v controllers table.
type ListController struct {
	Name       string   `json:"name"` // nvme0
	Cntlid     string   `json:"cntlid,omitempty"`
	Serial     string   `json:"serial,omitempty"`
	Model      string   `json:"model,omitempty"`
	Firmware   string   `json:"firmware,omitempty"`
	Transport  string   `json:"transport"`
	Address    string   `json:"address,omitempty"`
	Slot       string   `json:"slot,omitempty"`
	Subsystem  string   `json:"subsystem,omitempty"`
	Namespaces []string `json:"namespaces,omitempty"`
}

// ParseList reads "nvme list" or "nvme list -v" output, text or -o json
// (1.x with Index/ProductName, 2.x with GenericPath or the -v nesting).
func ParseList(data []byte) (*List, error) {
	if err := parse.Complete("nvme list", data); err != nil {
		return nil, err
	}
	lines := text.Lines(data)
	tables, err := findTables(toolList, lines)
	if err != nil {
		return nil, err
	}
	l := &List{Devices: []Device{}}
	found := false
	// One output prints each kind of table once ("nvme list -v" prints
	// three kinds); a kind again is a second output.
	kinds := map[string]bool{}
	for _, t := range tables {
		var err error
		kind := ""
		switch {
		case t.col("Node") == 0:
			kind, err = "device", l.addSimple(t, lines)
		case t.col("Subsystem-NQN") >= 0:
			kind, err = "subsystem", l.addSubsystems(t)
		case t.col("Device") == 0 && t.col("TxPort") >= 0:
			kind = "controller"
			l.addControllers(t)
		case t.col("Device") == 0 && t.col("NSID") >= 0:
			kind, err = "namespace", l.addNamespaces(t, lines)
		default:
			continue
		}
		if err != nil {
			return nil, err
		}
		if kinds[kind] {
			i := t.at
			return nil, &parse.Error{Tool: toolList, Line: i + 1, Text: lines[i], Reason: "a second " + kind + " table: two outputs run together?"}
		}
		kinds[kind] = true
		found = true
	}
	if !found {
		raw, ok, err := findJSON(toolList, data)
		if ok {
			return parseListJSON(raw)
		}
		if err != nil {
			return nil, err
		}
		if blank(data) {
			l.Empty = true // nvme-cli 1.x with no NVMe namespace
			return l, nil
		}
		return nil, missing(toolList, data, "device table")
	}
	l.link()
	return l, nil
}

func rowErr(t table, lines []string, r int, err error) error {
	i := t.rowLines[r]
	return &parse.Error{Tool: toolList, Line: i + 1, Text: lines[i], Reason: err.Error()}
}

func (l *List) addSimple(t table, lines []string) error {
	for r := range t.rows {
		d := Device{
			DevicePath:  t.cell(r, "Node"),
			GenericPath: t.cell(r, "Generic"),
			Serial:      t.cell(r, "SN"),
			Model:       t.cell(r, "Model"),
			Firmware:    t.cell(r, "FW Rev"),
		}
		if err := d.fill(t.cell(r, "Namespace"), t.cell(r, "Usage"), t.cell(r, "Format")); err != nil {
			return rowErr(t, lines, r, err)
		}
		l.upsert(d)
	}
	return nil
}

func (l *List) addSubsystems(t table) error {
	for r := range t.rows {
		l.Subsystems = append(l.Subsystems, ListSubsystem{
			Name: t.cell(r, "Subsystem"), NQN: t.cell(r, "Subsystem-NQN"),
			Controllers: splitList(t.cell(r, "Controllers")),
		})
	}
	return nil
}

func (l *List) addControllers(t table) {
	for r := range t.rows {
		l.Controllers = append(l.Controllers, ListController{
			Name: t.cell(r, "Device"), Cntlid: t.cell(r, "Cntlid"), Serial: t.cell(r, "SN"),
			Model: t.cell(r, "MN"), Firmware: t.cell(r, "FR"), Transport: t.cell(r, "TxPort"),
			Address: t.cell(r, "Address"), Slot: t.cell(r, "Slot"), Subsystem: t.cell(r, "Subsystem"),
			Namespaces: splitList(t.cell(r, "Namespaces")),
		})
	}
}

func (l *List) addNamespaces(t table, lines []string) error {
	for r := range t.rows {
		d := Device{DevicePath: devPath(t.cell(r, "Device")), GenericPath: devPath(t.cell(r, "Generic")),
			Controllers: splitList(t.cell(r, "Controllers"))}
		if err := d.fill(t.cell(r, "NSID"), t.cell(r, "Usage"), t.cell(r, "Format")); err != nil {
			return rowErr(t, lines, r, err)
		}
		l.upsert(d)
	}
	return nil
}

// fill sets the namespace, usage and format fields from their text.
func (d *Device) fill(nsid, usage, format string) error {
	if !strings.HasPrefix(d.DevicePath, "/dev/") {
		return fmt.Errorf("device %q is not a /dev path", d.DevicePath)
	}
	n, err := strconv.ParseUint(nsid, 0, 32)
	if err != nil {
		return fmt.Errorf("namespace id %q is not a number", nsid)
	}
	d.Namespace = uint32(n)
	d.Usage, d.Format = usage, format
	if d.UsedBytes, d.SizeBytes, err = parseUsage(usage); err != nil {
		return err
	}
	if d.SectorSize, d.MetadataSize, err = parseFormat(format); err != nil {
		return err
	}
	return nil
}

// upsert adds d, or fills the blanks of the device with the same path.
func (l *List) upsert(d Device) {
	for i := range l.Devices {
		e := &l.Devices[i]
		if e.DevicePath != d.DevicePath {
			continue
		}
		if e.GenericPath == "" {
			e.GenericPath = d.GenericPath
		}
		if len(e.Controllers) == 0 {
			e.Controllers = d.Controllers
		}
		return
	}
	l.Devices = append(l.Devices, d)
}

// link fills each device's subsystem, transport and identity from the -v
// controller and subsystem tables.
func (l *List) link() {
	nqn := map[string]string{}
	for _, s := range l.Subsystems {
		nqn[s.Name] = s.NQN
	}
	for i := range l.Devices {
		d := &l.Devices[i]
		name := strings.TrimPrefix(d.DevicePath, "/dev/")
		for _, c := range l.Controllers {
			if !contains(c.Namespaces, name) && !contains(d.Controllers, c.Name) {
				continue
			}
			if len(d.Controllers) == 0 {
				d.Controllers = []string{c.Name}
			}
			d.Subsystem, d.Transport, d.Address = c.Subsystem, c.Transport, c.Address
			d.SubsystemNQN = nqn[c.Subsystem]
			if d.Serial == "" {
				d.Serial, d.Model, d.Firmware = c.Serial, c.Model, c.Firmware
			}
			break
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// splitList reads "nvme4, nvme5".
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func devPath(s string) string {
	if s == "" || strings.HasPrefix(s, "/") {
		return s
	}
	return "/dev/" + s
}
